// deny_io_uring COMMAND [ARGS...]: runs COMMAND under a seccomp filter that makes
// io_uring_setup, io_uring_enter and io_uring_register fail with EPERM, as a container
// runtime's default profile does. The filter is inherited by every child (mpirun, its
// daemons, the ranks), so the test sees mpiwrite on a machine where io_uring is blocked.
#include <cerrno>
#include <cstddef>
#include <cstdio>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// The three io_uring system calls have the same numbers on every architecture (425-427).
#define DENY(nr)                                   \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: deny_io_uring COMMAND [ARGS...]\n");
    return 2;
  }
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      DENY(__NR_io_uring_setup),
      DENY(__NR_io_uring_enter),
      DENY(__NR_io_uring_register),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    perror("deny_io_uring: seccomp");
    return 2;
  }
  execvp(argv[1], argv + 1);
  perror("deny_io_uring: exec");
  return 127;
}
