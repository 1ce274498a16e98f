/*
 * filemap.c - whole files mapped into memory (see filemap.h).
 */
#include <errno.h>
#include <fcntl.h>
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

int luma_filemap_create(const char *path, const void *header, size_t hlen, size_t data_bytes,
                        luma_FileMap *map) {
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  int err = 0;
  for (size_t done = 0; done < hlen && err == 0;) {
    ssize_t n = pwrite(fd, (const char *)header + done, hlen - done, (off_t)done);
    if (n < 0 && errno != EINTR) err = errno;
    if (n > 0) done += (size_t)n;
  }
  if (err == 0 && data_bytes > 0) err = posix_fallocate(fd, 0, (off_t)(hlen + data_bytes));
  if (err == 0) err = map_fd(fd, hlen + data_bytes, 1, map);
  close(fd);
  if (err != 0) unlink(path);
  return err;
}

void luma_filemap_close(luma_FileMap *map) {
  if (map->addr == NULL) return;
  if (map->shared) msync(map->addr, map->len, MS_ASYNC);
  munmap(map->addr, map->len);
  map->addr = NULL;
}
