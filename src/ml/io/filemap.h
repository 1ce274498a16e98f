/*
 * filemap.h - whole files mapped into memory (no Lua): the storage of
 * matrices backed by .npy files (luma.io.read_npy {mmap = true} and
 * luma.io.open_npy, docs/MATRIX.md).
 *
 * A private mapping is copy-on-write: writable, but written pages become
 * this process's own and never reach the file, so a matrix over it can be
 * modified like any other without faulting.  It reserves no swap
 * (MAP_NORESERVE), so a file larger than memory maps and only the pages
 * written cost memory.  A shared mapping writes through to the file.
 */
#ifndef LUMA_ML_FILEMAP_H
#define LUMA_ML_FILEMAP_H

#include <stddef.h>

typedef struct luma_FileMap {
  unsigned char *addr; /* the file's first byte; NULL for an empty file */
  size_t len;          /* the file's size when it was mapped */
  int shared;          /* writes reach the file */
} luma_FileMap;

/* Returned when the path names something other than a regular file. */
#define LUMA_FILEMAP_NOT_REGULAR (-1)

/* Maps the whole regular file at path: shared (the file opened for
 * reading and writing) or private.  Returns 0, an errno value or
 * LUMA_FILEMAP_NOT_REGULAR. */
int luma_filemap_open(const char *path, int shared, luma_FileMap *map);

/* Creates or truncates path, writes header[0..hlen) and reserves
 * data_bytes of zeros after it, then maps the whole file shared.  The
 * space is allocated on disk now (posix_fallocate): a page written later
 * through the mapping can then never meet a full disk, which would be a
 * SIGBUS instead of an error.  Returns 0 or an errno value; on failure a
 * file this call created or truncated is removed. */
int luma_filemap_create(const char *path, const void *header, size_t hlen, size_t data_bytes,
                        luma_FileMap *map);

/* Unmaps; a shared mapping is first handed to writeback with
 * msync(MS_ASYNC) (its pages already are the file's: every reader sees
 * them at once). */
void luma_filemap_close(luma_FileMap *map);

#endif
