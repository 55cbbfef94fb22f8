#include "mpiwrite/sys/scratch_remover.hpp"

#include "mpiwrite/sys/posix_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

extern char** environ;

namespace mpiwrite {

namespace {

// posix_spawn attributes and file actions as RAII values.
struct SpawnAttributes {
  posix_spawnattr_t value;
  SpawnAttributes() { posix_spawnattr_init(&value); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&value); }
};
struct SpawnFileActions {
  posix_spawn_file_actions_t value;
  SpawnFileActions() { posix_spawn_file_actions_init(&value); }
  ~SpawnFileActions() { posix_spawn_file_actions_destroy(&value); }
};

// Runs `argv` (a shell that starts its work in the background and exits) in a session of its
// own, in the directory `cwd_fd` if valid, with `stdin_fd` (if valid) as its standard input;
// waits for the shell only. Returns "" or why it could not start.
std::string start_detached(std::vector<char*>& argv, int cwd_fd, int stdin_fd) {
  SpawnAttributes attributes;
  sigset_t none, handled;
  sigemptyset(&none);
  sigemptyset(&handled);
  sigaddset(&handled, SIGINT);
  sigaddset(&handled, SIGTERM);
  sigaddset(&handled, SIGHUP);
  sigaddset(&handled, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes.value, &none);
  posix_spawnattr_setsigdefault(&attributes.value, &handled);
  posix_spawnattr_setflags(&attributes.value,
                           POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  SpawnFileActions actions;
  // Started in the held directory (before every other descriptor is closed): relative paths
  // are removed there, wherever its name now leads.
  if (cwd_fd >= 0) posix_spawn_file_actions_addfchdir_np(&actions.value, cwd_fd);
  if (stdin_fd >= 0) posix_spawn_file_actions_adddup2(&actions.value, stdin_fd, 0);
  for (int fd = stdin_fd >= 0 ? 1 : 0; fd <= 2; ++fd) {
    posix_spawn_file_actions_addopen(&actions.value, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY,
                                     0);
  }
  posix_spawn_file_actions_addclosefrom_np(&actions.value, 3);

  pid_t shell = 0;
  const int error =
      posix_spawn(&shell, "/bin/sh", &actions.value, &attributes.value, argv.data(), environ);
  if (error != 0) return fmt::format("/bin/sh: spawn: {}", std::generic_category().message(error));
  int status = 0;
  while (::waitpid(shell, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "/bin/sh could not start the removal";
  return {};
}

}  // namespace

std::string remove_in_background(const std::vector<std::string>& paths,
                                 const std::string& then_rmdir, const HeldForRemoval& held) {
  if (paths.empty() && then_rmdir.empty()) return {};
  // sh starts rm in the background and exits at once, so rm is nobody's child to reap and
  // mpiwrite waits only for sh. The new session (POSIX_SPAWN_SETSID) is what keeps rm alive
  // when the launcher kills the ranks; default signal handling and an empty mask undo what
  // the rank inherited; standard streams on /dev/null, every other descriptor closed, so rm
  // holds neither the launcher's output pipes nor MPI's sockets open.
  // The rmdir only while the name leads to the held directory (stat does not follow a link);
  // tried for up to a minute, while the ranks' own background rmdirs of their layout
  // directories (remove_directories_in_background) may still be emptying it.
  const char* script =
      "d=$1; i=$2; shift 2; { rm -rf --one-file-system -- \"$@\"; [ -z \"$d\" ] || { n=0; "
      "while { [ -z \"$i\" ] || [ \"$(stat -c %d:%i -- \"$d\")\" = \"$i\" ]; } && "
      "! rmdir -- \"$d\" && [ $n -lt 300 ]; do n=$((n+1)); sleep 0.2; done; }; } "
      "</dev/null >/dev/null 2>&1 &";
  std::vector<char*> argv{const_cast<char*>("sh"),
                          const_cast<char*>("-c"),
                          const_cast<char*>(script),
                          const_cast<char*>("mpiwrite-remove"),
                          const_cast<char*>(then_rmdir.c_str()),
                          const_cast<char*>(held.identity.c_str())};
  for (const std::string& path : paths) argv.push_back(const_cast<char*>(path.c_str()));
  argv.push_back(nullptr);

  return start_detached(argv, held.fd, -1);
}

std::string remove_directories_in_background(int dir_fd, const std::vector<std::string>& dirs) {
  if (dirs.empty()) return {};
  // The names go on standard input through a file without a name (O_TMPFILE: nothing is ever
  // left behind), NUL-separated and in order (children before parents): a million names do
  // not fit in the arguments of one command.
  UniqueFd list(::openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (!list) return fmt::format("a list of the directories: {}", std::strerror(errno));
  std::string text;
  for (const std::string& dir : dirs) {
    text += dir;
    text += '\0';
  }
  if (write_all(list.get(), text.data(), text.size()) != 0 ||
      ::lseek(list.get(), 0, SEEK_SET) != 0) {
    return fmt::format("a list of the directories: {}", std::strerror(errno));
  }
  // A background list's standard input is /dev/null unless redirected: hence fd 3.
  const char* script =
      "exec 3<&0; { xargs -0 rmdir --ignore-fail-on-non-empty -- <&3; } </dev/null >/dev/null 2>&1 "
      "&";
  std::vector<char*> argv{const_cast<char*>("sh"), const_cast<char*>("-c"),
                          const_cast<char*>(script), nullptr};
  return start_detached(argv, dir_fd, list.get());
}

}  // namespace mpiwrite
