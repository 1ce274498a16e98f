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
 * SPDX-License-Identifier: MIT
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

/* Creates path anew, writes header[0..hlen) and reserves data_bytes of
 * zeros after it, then maps the whole file shared.  The space is
 * allocated on disk now (posix_fallocate): a page written later through
 * the mapping can then never meet a full disk, which would be a SIGBUS
 * instead of an error.  The file is made beside path and renamed over it,
 * so a file already there is replaced, never truncated: a mapping of it
 * elsewhere keeps its pages.  Returns 0 or an errno value; on failure
 * path is left as it was. */
int luma_filemap_create(const char *path, const void *header, size_t hlen, size_t data_bytes,
                        luma_FileMap *map);

/* Replaces the file at path with bytes[0..len): written to a new file
 * beside it (mode 0666 less the umask, or the old file's permission bits),
 * flushed to disk with fsync when `sync` is set, then renamed over path.
 * A crash leaves the old file whole, and the old file is never truncated,
 * so a matrix mapped from it (read_npy {mmap = true}) can never fault.
 * Returns 0 or an errno value; on failure path is left as it was. */
int luma_file_replace(const char *path, const void *bytes, size_t len, int sync);

/* Unmaps; a shared mapping is first handed to writeback with
 * msync(MS_ASYNC) (its pages already are the file's: every reader sees
 * them at once). */
void luma_filemap_close(luma_FileMap *map);

#endif
