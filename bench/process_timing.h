// Timing whole processes: posix_spawn a program, wait for it to exit, CLOCK_MONOTONIC
// read just before the spawn and just after waitpid returns. Also a scratch folder for
// what the spawned programs write. Header-only, free of our runtime and of libtorch.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

extern char** environ;

namespace sops_bench {

inline double monotonic_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// One spawned process: how long from spawn to exit, and how it ended.
struct ProcessRun {
  double ms = 0;
  int exit_code = -1;  // -1: killed by a signal
};

// Runs argv[0] (a path: PATH is not searched) with `argv` and this process's
// environment, stdout to /dev/null and stderr to `stderr_path` (truncated).
// Throws std::runtime_error when the spawn itself fails.
inline ProcessRun spawn_and_wait(const std::vector<std::string>& argv,
                                 const std::string& stderr_path) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ProcessRun run;
  pid_t pid = 0;
  const double start = monotonic_ms();
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) throw std::runtime_error("posix_spawn " + argv[0] + ": " + std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  run.ms = monotonic_ms() - start;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// A new empty folder under $TMPDIR (else /tmp), removed with the object.
class TempDir {
 public:
  explicit TempDir(const char* prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) {
      throw std::runtime_error("mkdtemp " + templ + ": " + std::strerror(errno));
    }
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace sops_bench
