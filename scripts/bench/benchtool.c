/*
 * benchtool - times whole commands for scripts/bench without a shell in
 * between (a shell would add about a millisecond to startup rows).
 *
 *   benchtool N PROGRAM [ARGS...]
 *
 * Runs the program N times with stdout and stderr sent to /dev/null and
 * prints one line per run: "<wall seconds> <peak RSS in KiB> <exit status>".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3 || atoi(argv[1]) < 1) {
    fprintf(stderr, "usage: benchtool N PROGRAM [ARGS...]\n");
    return 2;
  }
  int runs = atoi(argv[1]);
  for (int r = 0; r < runs; r++) {
    double start = now();
    pid_t pid = fork();
    if (pid < 0) {
      perror("benchtool: fork");
      return 1;
    }
    if (pid == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) {
        dup2(devnull, STDOUT_FILENO);
        dup2(devnull, STDERR_FILENO);
      }
      execvp(argv[2], argv + 2);
      _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
      perror("benchtool: wait4");
      return 1;
    }
    double wall = now() - start;
    printf("%.6f %ld %d\n", wall, usage.ru_maxrss,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    fflush(stdout);
  }
  return 0;
}
