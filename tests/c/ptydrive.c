/*
 * ptydrive - runs a program on a pseudo-terminal and drives it from a
 * script, so the REPL is tested (and measured) as a person would use it.
 *
 *   ptydrive [-t SECONDS] SCRIPT -- PROGRAM [ARGS...]
 *
 * SCRIPT lines (escapes \r \n \t \\ and \xHH in the text):
 *   send TEXT      write TEXT to the terminal
 *   expect TEXT    wait until the output since the last match contains TEXT
 *   absent TEXT    the next expect fails if TEXT comes before its match
 *                  (a stray line the program must not print)
 *   sleep SECONDS  let the program run
 *   rss            print "rss_kb N": the program's resident memory now
 *   wait           wait for the program to exit; print "exit N"
 * Each send first waits for the program's output to go quiet.
 * Lines starting with # and blank lines are ignored.  Exit status 0 when
 * every step succeeded; 1 (with the transcript on stderr) when an expect
 * timed out or the program died early; 2 for usage errors.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static char transcript[1 << 20];
static size_t transcript_len = 0;
static size_t matched_upto = 0;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads whatever the program wrote within `wait` seconds.  Returns 0 once
 * the terminal is closed (the program exited). */
static int pump(int fd, double wait) {
  struct pollfd p = {fd, POLLIN, 0};
  int ms = (int)(wait * 1000);
  int r = poll(&p, 1, ms < 0 ? 0 : ms);
  if (r <= 0) return 1;
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n <= 0) return 0;
  size_t room = sizeof transcript - 1 - transcript_len;
  if ((size_t)n > room) n = (ssize_t)room;
  memcpy(transcript + transcript_len, buf, (size_t)n);
  transcript_len += (size_t)n;
  transcript[transcript_len] = '\0';
  return 1;
}

static size_t unescape(const char *in, char *out) {
  size_t n = 0;
  for (const char *p = in; *p; p++) {
    if (*p != '\\' || p[1] == '\0') {
      out[n++] = *p;
      continue;
    }
    p++;
    switch (*p) {
      case 'r': out[n++] = '\r'; break;
      case 'n': out[n++] = '\n'; break;
      case 't': out[n++] = '\t'; break;
      case 'x': {
        char hex[3] = {p[1], p[1] ? p[2] : 0, 0};
        out[n++] = (char)strtol(hex, NULL, 16);
        p += 2;
        break;
      }
      default: out[n++] = *p;
    }
  }
  out[n] = '\0';
  return n;
}

static long rss_kb(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld", &kb) == 1) break;
  fclose(f);
  return kb;
}

static int fail(const char *what, const char *arg) {
  fprintf(stderr, "ptydrive: %s%s\n--- transcript ---\n%s\n--- end ---\n", what, arg,
          transcript);
  return 1;
}

int main(int argc, char **argv) {
  double timeout = 5.0;
  int i = 1;
  if (i + 1 < argc && strcmp(argv[i], "-t") == 0) {
    timeout = atof(argv[i + 1]);
    i += 2;
  }
  if (i + 2 >= argc || strcmp(argv[i + 1], "--") != 0) {
    fprintf(stderr, "usage: ptydrive [-t SECONDS] SCRIPT -- PROGRAM [ARGS...]\n");
    return 2;
  }
  FILE *script = fopen(argv[i], "r");
  if (script == NULL) {
    fprintf(stderr, "ptydrive: cannot open %s\n", argv[i]);
    return 2;
  }
  struct winsize ws = {30, 100, 0, 0};
  int fd;
  pid_t pid = forkpty(&fd, NULL, NULL, &ws);
  if (pid < 0) {
    perror("ptydrive: forkpty");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[i + 2], argv + i + 2);
    perror("ptydrive: exec");
    _exit(127);
  }
  char line[4096], text[4096], absent[4096] = "";
  int status = 0, exited = 0;
  while (fgets(line, sizeof line, script)) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0') continue;
    char *arg = strchr(line, ' ');
    arg = arg ? arg + 1 : line + strlen(line);
    if (strncmp(line, "send ", 5) == 0) {
      /* Type only once the program has gone quiet (50 ms without output,
       * at most 1 s): a program that printed its prompt may not have put
       * the terminal in raw mode yet, and keys typed in cooked mode are
       * the line discipline's, not the program's. */
      double settle_until = now() + 1.0;
      size_t before;
      do {
        before = transcript_len;
        pump(fd, 0.05);
      } while (transcript_len != before && now() < settle_until);
      size_t n = unescape(arg, text);
      if (write(fd, text, n) != (ssize_t)n) return fail("write failed for: ", arg);
      pump(fd, 0.02);
    } else if (strncmp(line, "expect ", 7) == 0) {
      unescape(arg, text);
      double deadline = now() + timeout;
      char *hit;
      while ((hit = strstr(transcript + matched_upto, text)) == NULL) {
        if (now() > deadline) return fail("timed out waiting for: ", arg);
        if (!pump(fd, 0.05)) {
          if ((hit = strstr(transcript + matched_upto, text)) != NULL) break;
          return fail("program exited while waiting for: ", arg);
        }
      }
      size_t gap = (size_t)(hit - transcript) - matched_upto, len = strlen(absent);
      for (size_t k = 0; len > 0 && k + len <= gap; k++)
        if (memcmp(transcript + matched_upto + k, absent, len) == 0)
          return fail("printed before the expected text: ", absent);
      absent[0] = '\0';
      matched_upto = (size_t)(hit - transcript) + strlen(text);
    } else if (strncmp(line, "absent ", 7) == 0) {
      unescape(arg, absent);
    } else if (strncmp(line, "sleep ", 6) == 0) {
      double until = now() + atof(arg);
      while (now() < until) pump(fd, until - now());
    } else if (strcmp(line, "rss") == 0) {
      printf("rss_kb %ld\n", rss_kb(pid));
    } else if (strcmp(line, "wait") == 0) {
      double deadline = now() + timeout;
      while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now() > deadline) return fail("timed out waiting for exit", "");
        pump(fd, 0.05);
      }
      exited = 1;
      printf("exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    } else {
      fprintf(stderr, "ptydrive: unknown step '%s'\n", line);
      return 2;
    }
  }
  fclose(script);
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  fflush(stdout);
  return 0;
}
