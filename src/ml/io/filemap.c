/*
 * filemap.c - whole files mapped into memory (see filemap.h).
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/filemap.h"

/* Maps len bytes of fd from offset 0.  The descriptor can be closed
 * afterwards: the mapping keeps the file open. */
static int map_fd(int fd, size_t len, int shared, luma_FileMap *map) {
  map->addr = NULL;
  map->len = len;
  map->shared = shared;
  if (len == 0) return 0; /* mmap refuses empty mappings; there is nothing to map */
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                 shared ? MAP_SHARED : MAP_PRIVATE | MAP_NORESERVE, fd, 0);
  if (p == MAP_FAILED) return errno;
  map->addr = p;
  return 0;
}

int luma_filemap_open(const char *path, int shared, luma_FileMap *map) {
  int fd = open(path, (shared ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st;
  int err = 0;
  if (fstat(fd, &st) != 0) err = errno;
  else if (!S_ISREG(st.st_mode)) err = LUMA_FILEMAP_NOT_REGULAR;
  else err = map_fd(fd, (size_t)st.st_size, shared, map);
  close(fd);
  return err;
}

/* Opens a new file beside path, named path.tmp.<pid>.<n>, for reading
 * and writing; O_EXCL makes it ours alone.  open() with 0666 gives it the
 * mode any new file gets (the umask applies; mkstemp would make it 0600);
 * a file being replaced lends it its permission bits.  Returns the
 * descriptor and the name in *name (malloc'd), or -1 with errno set. */
static int open_beside(const char *path, char **name) {
  static atomic_uint counter;
  size_t size = strlen(path) + 48;
  *name = malloc(size);
  if (*name == NULL) return -1;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
    snprintf(*name, size, "%s.tmp.%d.%u", path, (int)getpid(), atomic_fetch_add(&counter, 1));
    fd = open(*name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  struct stat st;
  if (fd >= 0 && stat(path, &st) == 0 && fchmod(fd, st.st_mode & 07777) != 0) {
    int err = errno;
    close(fd);
    unlink(*name);
    errno = err;
    fd = -1;
  }
  if (fd < 0) {
    int err = errno;
    free(*name);
    *name = NULL;
    errno = err;
  }
  return fd;
}

static int write_at(int fd, const void *bytes, size_t len, size_t offset) {
  for (size_t done = 0; done < len;) {
    ssize_t n = pwrite(fd, (const char *)bytes + done, len - done, (off_t)(offset + done));
    if (n < 0 && errno != EINTR) return errno;
    if (n > 0) done += (size_t)n;
  }
  return 0;
}

/* Closes the new file and renames it over path, or removes it when err is
 * set (or closing or renaming fails).  Returns the first error. */
static int finish_beside(int fd, char *name, const char *path, int err) {
  if (close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && rename(name, path) != 0) err = errno;
  if (err != 0) unlink(name);
  free(name);
  return err;
}

int luma_file_replace(const char *path, const void *bytes, size_t len, int sync) {
  char *name;
  int fd = open_beside(path, &name);
  if (fd < 0) return errno;
  int err = write_at(fd, bytes, len, 0);
  if (err == 0 && sync && fsync(fd) != 0) err = errno;
  return finish_beside(fd, name, path, err);
}

int luma_filemap_create(const char *path, const void *header, size_t hlen, size_t data_bytes,
                        luma_FileMap *map) {
  char *name;
  int fd = open_beside(path, &name);
  if (fd < 0) return errno;
  int err = write_at(fd, header, hlen, 0);
  if (err == 0 && data_bytes > 0) err = posix_fallocate(fd, 0, (off_t)(hlen + data_bytes));
  if (err == 0) err = map_fd(fd, hlen + data_bytes, 1, map);
  err = finish_beside(fd, name, path, err);
  if (err != 0) luma_filemap_close(map);
  return err;
}

void luma_filemap_close(luma_FileMap *map) {
  if (map->addr == NULL) return;
  if (map->shared) msync(map->addr, map->len, MS_ASYNC);
  munmap(map->addr, map->len);
  map->addr = NULL;
}
