// Outputs written safely: a regular file replaced only after every byte reached it, special files
// written in place and never replaced, failed writes (disk full, a FIFO's reader gone, a file
// size limit) reported with the old file intact and no temporary left, outputs that are inputs
// refused, and an interrupt that removes the temporary file and says what it stopped.
// Device nodes are private copies made with mknod in a scratch folder, never the system's;
// a full disk is a small tmpfs mounted in a child's own mount namespace (skipped where that is
// not allowed) and, everywhere, a file size limit.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "base/common/errors.h"
#include "base/io/interrupt_registry.h"
#include "base/io/output_file.h"
#include "thrown.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

struct ChildResult {
  int status = 0;   // as waitpid gives it
  std::string err;  // what the child wrote on stderr
};

// Runs `body` in a child process (its stderr in a file) and waits for it: for what must not
// happen to the test process itself (a file size limit, a mount, a deadly signal).
template <typename Body>
ChildResult in_child(const fs::path& err_file, Body body) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    int code = 1;
    try {
      code = body();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "unexpected exception: %s\n", error.what());
    }
    std::fflush(stderr);
    ::_exit(code);
  }
  ChildResult result;
  ::waitpid(pid, &result.status, 0);
  result.err = read_text(err_file);
  return result;
}

int child_failure(const char* what) {
  std::fprintf(stderr, "child check failed: %s\n", what);
  return 1;
}

class Output : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("mish_output_") + std::to_string(::getpid()) + "_" +
                       test->test_suite_name() + "_" + test->name();
    std::replace(name.begin(), name.end(), '/', '_');
    dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(dir, ignored);
  }

  // Names in `dir` other than `keep`: temporary files left behind.
  std::vector<std::string> others(const std::vector<std::string>& keep) const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (std::find(keep.begin(), keep.end(), name) == keep.end()) found.push_back(name);
    }
    return found;
  }

  // A private character device with the given numbers (1,3 is null, 1,7 full), or "" with
  // `why` set when this machine does not allow making or writing one.
  std::string device_copy(const char* name, unsigned minor, std::string& why) const {
    const fs::path path = dir / name;
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) != 0) {
      why = std::string("mknod is not allowed here: ") + std::strerror(errno);
      return "";
    }
    const int fd = ::open(path.c_str(), O_WRONLY);
    if (fd < 0) {
      why = std::string("device nodes cannot be opened here (nodev?): ") + std::strerror(errno);
      return "";
    }
    ::close(fd);
    return path.string();
  }

  fs::path dir;
};

TEST_F(Output, NewFileIsWrittenAndNoTemporaryStays) {
  const std::string path = (dir / "report.json").string();
  write_output_file(path, "report", "{}\n");
  EXPECT_EQ(read_text(path), "{}\n");
  EXPECT_TRUE(others({"report.json"}).empty());
}

TEST_F(Output, ReplacementKeepsTheOldFilesPermissions) {
  const fs::path path = dir / "private.json";
  write_text(path, "old");
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
  write_output_file(path.string(), "report", "new");
  EXPECT_EQ(read_text(path), "new");
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(Output, ThroughASymbolicLinkTheFileIsReplacedNotTheLink) {
  fs::create_directories(dir / "real");
  write_text(dir / "real" / "r.json", "old");
  fs::create_symlink(dir / "real" / "r.json", dir / "link.json");
  write_output_file((dir / "link.json").string(), "report", "new");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(read_text(dir / "real" / "r.json"), "new");
  EXPECT_TRUE(others({"real", "link.json"}).empty());
}

TEST_F(Output, WithoutCommitTheOldFileStaysAndTheTemporaryGoes) {
  const fs::path path = dir / "report.json";
  write_text(path, "old");
  {
    OutputFile file(path.string(), "report");
    file.write("half a rep");
    EXPECT_EQ(others({"report.json"}).size(), 1u);  // the temporary, while writing
  }
  EXPECT_EQ(read_text(path), "old");
  EXPECT_TRUE(others({"report.json"}).empty());
}

TEST_F(Output, FifoIsWrittenInPlace) {
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::string received;
  std::thread reader([&] { received = read_text(fifo); });
  const std::string content(1 << 20, 'r');  // larger than a pipe holds: written as it is read
  write_output_file(fifo.string(), "report", content);
  reader.join();
  EXPECT_EQ(received, content);
  struct stat status {};
  ASSERT_EQ(::stat(fifo.c_str(), &status), 0);
  EXPECT_TRUE(S_ISFIFO(status.st_mode));
  EXPECT_TRUE(others({"pipe"}).empty());
}

TEST_F(Output, FifoWhoseReaderLeftIsAFailedWriteNotADeadProcess) {
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char byte;
    if (::read(fd, &byte, 1) != 1) ADD_FAILURE() << "nothing arrived";
    ::close(fd);  // the rest of the write now has no reader
  });
  const std::string message = thrown<EnvironmentError>(
      [&] { write_output_file(fifo.string(), "report", std::string(1 << 22, 'x')); });
  reader.join();
  EXPECT_NE(message.find("writing report '" + fifo.string() + "' failed: Broken pipe"),
            std::string::npos)
      << message;
}

TEST_F(Output, CharacterDeviceIsWrittenInPlaceNeverReplaced) {
  std::string why;
  const std::string null_copy = device_copy("null", 3, why);
  if (null_copy.empty()) GTEST_SKIP() << why;
  check_output_path(null_copy, "--json", {});
  write_output_file(null_copy, "report", "{}\n");
  struct stat status {};
  ASSERT_EQ(::stat(null_copy.c_str(), &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
  EXPECT_EQ(status.st_rdev, makedev(1, 3));
  EXPECT_TRUE(others({"null"}).empty());
}

TEST_F(Output, FullDeviceGivesDiskFull) {
  std::string why;
  const std::string full_copy = device_copy("full", 7, why);
  if (full_copy.empty()) GTEST_SKIP() << why;
  const std::string message =
      thrown<EnvironmentError>([&] { write_output_file(full_copy, "report", "{}\n"); });
  EXPECT_NE(message.find("No space left on device"), std::string::npos) << message;
  struct stat status {};
  ASSERT_EQ(::stat(full_copy.c_str(), &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
}

TEST_F(Output, FileSizeLimitFailsTheWriteAndKeepsTheOldFile) {
  const fs::path path = dir / "report.json";
  write_text(path, "old report");
  const ChildResult child = in_child(dir / "child.err", [&] {
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    ::signal(SIGXFSZ, SIG_IGN);  // EFBIG from write(), not death by signal
    const std::string message = thrown<EnvironmentError>(
        [&] { write_output_file(path.string(), "report", std::string(1 << 20, 'x')); });
    std::fprintf(stderr, "%s\n", message.c_str());
    return message.empty() ? child_failure("no EnvironmentError") : 0;
  });
  ASSERT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
  EXPECT_NE(child.err.find("writing report '" + path.string() + "' failed: File too large"),
            std::string::npos)
      << child.err;
  EXPECT_NE(child.err.find("the file is left as it was"), std::string::npos) << child.err;
  EXPECT_EQ(read_text(path), "old report");
  EXPECT_TRUE(others({"report.json", "child.err"}).empty());
}

// In a child with its own mount namespace, so that no mount outlives the test or is seen by
// anyone else: `body` gets a fresh tmpfs of 64 KiB (read-only when asked). Exit code 77 from
// the child means mounting is not allowed here.
template <typename Body>
ChildResult on_small_tmpfs(const fs::path& dir, bool read_only, Body body) {
  const fs::path mount_point = dir / "tmpfs";
  fs::create_directories(mount_point);
  return in_child(dir / "child.err", [&] {
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=64k") != 0) {
      std::fprintf(stderr, "cannot mount a tmpfs here: %s\n", std::strerror(errno));
      return 77;
    }
    write_text(mount_point / "report.json", "old report");
    if (read_only &&
        ::mount(nullptr, mount_point.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
      std::fprintf(stderr, "cannot remount read-only: %s\n", std::strerror(errno));
      return 77;
    }
    return body(mount_point);
  });
}

TEST_F(Output, FullTmpfsFailsTheWriteAndKeepsTheOldFile) {
  const ChildResult child = on_small_tmpfs(dir, false, [](const fs::path& tmpfs) {
    const fs::path path = tmpfs / "report.json";
    const std::string message = thrown<EnvironmentError>(
        [&] { write_output_file(path.string(), "report", std::string(1 << 20, 'x')); });
    std::fprintf(stderr, "%s\n", message.c_str());
    if (message.find("No space left on device") == std::string::npos)
      return child_failure("no disk-full message");
    if (read_text(path) != "old report") return child_failure("the old report changed");
    if (std::distance(fs::directory_iterator(tmpfs), {}) != 1)
      return child_failure("a temporary file was left");
    return 0;
  });
  if (WIFEXITED(child.status) && WEXITSTATUS(child.status) == 77)
    GTEST_SKIP() << child.err.substr(0, child.err.find('\n'));
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
}

TEST_F(Output, ReadOnlyFileSystemIsRefusedUpFront) {
  const ChildResult child = on_small_tmpfs(dir, true, [](const fs::path& tmpfs) {
    const std::string message =
        thrown<UsageError>([&] { check_output_path((tmpfs / "new.json").string(), "--json", {}); });
    const std::string existing = thrown<UsageError>(
        [&] { check_output_path((tmpfs / "report.json").string(), "--json", {}); });
    std::fprintf(stderr, "%s\n%s\n", message.c_str(), existing.c_str());
    if (message.find("Read-only file system") == std::string::npos ||
        existing.find("Read-only file system") == std::string::npos)
      return child_failure("no read-only message");
    return 0;
  });
  if (WIFEXITED(child.status) && WEXITSTATUS(child.status) == 77)
    GTEST_SKIP() << child.err.substr(0, child.err.find('\n'));
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
}

// An output path that becomes a link to an input after the up-front check (which passed) is
// refused when it is opened, for a replaced file and an append alike. In a child: the list of
// protected inputs is the process's.
TEST_F(Output, ALinkToAnInputSwappedInAfterTheCheckIsRefusedWhenOpened) {
  write_text(dir / "config.json", "{}");
  const ChildResult child = in_child(dir / "child.err", [&] {
    protect_inputs({(dir / "config.json").string()});
    const std::string out = (dir / "out.json").string();
    check_output_path(out, "--json", {(dir / "config.json").string()});
    fs::create_symlink(dir / "config.json", out);
    const std::string written =
        thrown<UsageError>([&] { write_output_file(out, "report", "new"); });
    const std::string appended =
        thrown<UsageError>([&] { append_output_file(out, "Markdown summary", "new"); });
    std::fprintf(stderr, "%s\n%s\n", written.c_str(), appended.c_str());
    const std::string says =
        "it is the same file as the input '" + (dir / "config.json").string() + "'";
    if (written.find(says) == std::string::npos || appended.find(says) == std::string::npos)
      return child_failure("not refused as the input");
    return 0;
  });
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
  EXPECT_EQ(read_text(dir / "config.json"), "{}");
  EXPECT_TRUE(others({"config.json", "out.json", "child.err"}).empty());
}

// An input reached through a hard link, or through a link in the folder part of the path.
TEST_F(Output, AnInputIsRefusedByTheWriterWhateverTheWayThere) {
  fs::create_directories(dir / "inputs");
  write_text(dir / "inputs" / "c.json", "{}");
  fs::create_hard_link(dir / "inputs" / "c.json", dir / "hard.json");
  fs::create_directory_symlink(dir / "inputs", dir / "folder");
  const ChildResult child = in_child(dir / "child.err", [&] {
    protect_inputs({(dir / "inputs" / "c.json").string()});
    for (const fs::path& path : {dir / "hard.json", dir / "folder" / "c.json"}) {
      const std::string message =
          thrown<UsageError>([&] { write_output_file(path.string(), "report", "new"); });
      if (message.find("it is the same file as the input") == std::string::npos)
        return child_failure(path.c_str());
    }
    return 0;
  });
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
  EXPECT_EQ(read_text(dir / "inputs" / "c.json"), "{}");
}

// Once open, the output is the entry that was checked, in the folder that was checked: a link
// put at its name meanwhile is replaced (never followed), and a folder of the path swapped for
// a link elsewhere does not move it.
TEST_F(Output, WhatIsRenamedOrLinkedInWhileWritingIsNeverFollowed) {
  write_text(dir / "config.json", "{}");
  {
    OutputFile file((dir / "out.json").string(), "report");
    file.write("new");
    fs::create_symlink(dir / "config.json", dir / "out.json");
    file.commit();
  }
  EXPECT_EQ(read_text(dir / "config.json"), "{}");
  EXPECT_FALSE(fs::is_symlink(dir / "out.json"));
  EXPECT_EQ(read_text(dir / "out.json"), "new");

  fs::create_directories(dir / "sub");
  fs::create_directories(dir / "elsewhere");
  {
    OutputFile file((dir / "sub" / "r.json").string(), "report");
    file.write("moved with its folder");
    fs::rename(dir / "sub", dir / "sub-then");
    fs::create_directory_symlink(dir / "elsewhere", dir / "sub");
    file.commit();
  }
  EXPECT_EQ(read_text(dir / "sub-then" / "r.json"), "moved with its folder");
  EXPECT_TRUE(fs::is_empty(dir / "elsewhere"));
}

TEST_F(Output, UnwritableTargetsAreRefusedByTheWriterToo) {
  EXPECT_NE(thrown<UsageError>([&] {
              write_output_file(dir.string(), "report", "x");
            }).find("it is a folder"),
            std::string::npos);
  EXPECT_NE(thrown<UsageError>([&] {
              write_output_file((dir / "no" / "r.json").string(), "report", "x");
            }).find("does not exist"),
            std::string::npos);
  EXPECT_NE(thrown<UsageError>([&] { write_output_file("", "report", "x"); }).find("empty"),
            std::string::npos);
  EXPECT_TRUE(others({}).empty());
}

TEST_F(Output, CheckRefusesWhatCannotBeAnOutput) {
  const auto refusal = [&](const std::string& path) {
    return thrown<UsageError>([&] { check_output_path(path, "--json", {}); });
  };
  write_text(dir / "file", "x");
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = (dir / "sock").string();
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);

  EXPECT_NE(refusal(dir.string()).find("it is a folder"), std::string::npos);
  EXPECT_NE(refusal(socket_path).find("it is a socket"), std::string::npos);
  EXPECT_NE(refusal((dir / "missing" / "r.json").string())
                .find("folder '" + (dir / "missing").string() + "' does not exist"),
            std::string::npos);
  EXPECT_NE(refusal((dir / "file" / "r.json").string()).find("Not a directory"), std::string::npos);
  EXPECT_NE(refusal((dir / std::string(300, 'n')).string()).find("File name too long"),
            std::string::npos);
  EXPECT_NE(refusal("").find("--json '': the file name is empty"), std::string::npos);
  EXPECT_NE(refusal((dir / "out/").string()).find("names a folder"), std::string::npos);
  EXPECT_NE(refusal("/proc/mishbench-output.json").find("procfs"), std::string::npos);
  EXPECT_NE(refusal("/proc/self/status").find("it is on procfs"), std::string::npos);
  EXPECT_NE(refusal("/sys/mishbench-output.json").find("sysfs"), std::string::npos);
  // A regular file reached through /proc/self/fd (as /dev/stdout is when redirected to a file).
  const int fd = ::open((dir / "file").c_str(), O_WRONLY);
  EXPECT_NE(refusal("/proc/self/fd/" + std::to_string(fd)).find("reached through /proc"),
            std::string::npos);
  ::close(fd);
  ::close(sock);
  EXPECT_NO_THROW(check_output_path((dir / "new.json").string(), "--json", {}));
  EXPECT_NO_THROW(check_output_path((dir / "file").string(), "--json", {}));
}

TEST_F(Output, CheckRefusesWhatTheUserMayNotWrite) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write whatever the permission bits say";
  write_text(dir / "read-only.json", "x");
  fs::permissions(dir / "read-only.json", fs::perms::owner_read);
  EXPECT_NE(thrown<UsageError>([&] {
              check_output_path((dir / "read-only.json").string(), "--json", {});
            }).find("Permission denied"),
            std::string::npos);
  fs::create_directories(dir / "locked");
  fs::permissions(dir / "locked", fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_NE(thrown<UsageError>([&] {
              check_output_path((dir / "locked" / "r.json").string(), "--json", {});
            }).find("Permission denied"),
            std::string::npos);
}

TEST_F(Output, AnInputIsNeverAnOutputWhateverItsName) {
  write_text(dir / "config.json", "{}");
  fs::create_symlink(dir / "config.json", dir / "link.json");
  fs::create_hard_link(dir / "config.json", dir / "hard.json");
  const std::vector<std::string> inputs = {(dir / "config.json").string()};
  for (const char* name : {"config.json", "link.json", "hard.json"}) {
    const std::string message =
        thrown<UsageError>([&] { check_output_path((dir / name).string(), "--json", inputs); });
    EXPECT_NE(message.find("is the same file as the input '" + inputs[0] + "'"), std::string::npos)
        << name << ": " << message;
  }
  const std::string relative = (dir / "." / "sub" / ".." / "config.json").string();
  fs::create_directories(dir / "sub");
  EXPECT_FALSE(thrown<UsageError>([&] { check_output_path(relative, "--json", inputs); }).empty());
  EXPECT_EQ(read_text(dir / "config.json"), "{}");
}

TEST_F(Output, SameOutputSeesThroughLinksAndDots) {
  write_text(dir / "a.json", "x");
  fs::create_symlink(dir / "a.json", dir / "b.json");
  EXPECT_TRUE(same_output((dir / "a.json").string(), (dir / "b.json").string()));
  EXPECT_TRUE(same_output((dir / "new.json").string(), (dir / "sub" / ".." / "new.json").string()));
  EXPECT_FALSE(same_output((dir / "a.json").string(), (dir / "new.json").string()));
}

TEST_F(Output, FolderCheck) {
  const auto refusal = [&](const fs::path& path) {
    return thrown<UsageError>([&] { check_output_folder(path.string(), "--dump"); });
  };
  write_text(dir / "file", "x");
  EXPECT_NE(refusal(dir / "file").find("is not a folder"), std::string::npos);
  EXPECT_NE(refusal(dir / "a" / "b").find("does not exist"), std::string::npos);
  EXPECT_NE(refusal("/proc/mishbench-dump").find("procfs"), std::string::npos);
  EXPECT_TRUE(refusal(dir / "new-dump").empty());
  EXPECT_TRUE(refusal(dir.string() + "/").empty());
  EXPECT_FALSE(fs::exists(dir / "new-dump"));  // checking creates nothing
}

TEST_F(Output, AppendKeepsWhatWasThere) {
  const fs::path path = dir / "summary.md";
  write_text(path, "step one\n");
  append_output_file(path.string(), "Markdown summary", "step two\n");
  append_output_file((dir / "new.md").string(), "Markdown summary", "first\n");
  EXPECT_EQ(read_text(path), "step one\nstep two\n");
  EXPECT_EQ(read_text(dir / "new.md"), "first\n");
}

TEST_F(Output, FailedAppendCutsTheFileBack) {
  const fs::path path = dir / "summary.md";
  write_text(path, "step one\n");
  const ChildResult child = in_child(dir / "child.err", [&] {
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    ::signal(SIGXFSZ, SIG_IGN);
    const std::string message = thrown<EnvironmentError>(
        [&] { append_output_file(path.string(), "Markdown summary", std::string(8192, 'x')); });
    std::fprintf(stderr, "%s\n", message.c_str());
    return message.empty() ? child_failure("no EnvironmentError") : 0;
  });
  ASSERT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
  EXPECT_NE(child.err.find("cut back to its old length"), std::string::npos) << child.err;
  EXPECT_EQ(read_text(path), "step one\n");
}

// A child that installs the interrupt cleanup and writes `target` without end, telling the
// parent (through a pipe) once it is about to write; the parent waits until `reading` (the FIFO
// reader, when there is one) got the first bytes, so the child is inside the write, and then
// sends `signal_number`. With `append`, one append_output_file call far larger than a pipe holds
// (for a FIFO target whose reader stops reading); else an OutputFile written a chunk at a time to a
// slow sink.
ChildResult interrupted_writer(const fs::path& dir, const fs::path& target, bool append,
                               int signal_number, const std::atomic<bool>* reading = nullptr) {
  int ready[2];
  if (::pipe(ready) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int err = ::open((dir / "child.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, STDERR_FILENO);
    install_interrupt_cleanup();
    install_interrupt_cleanup();  // a second call changes nothing
    const std::string chunk(1 << 12, 'x'), whole(1 << 24, 'x');
    const auto say_ready = [&] {
      const char byte = 1;
      if (::write(ready[1], &byte, 1) != 1) ::_exit(1);
    };
    if (append) {
      say_ready();  // the reader gets the first bytes; the rest of `whole` waits in write()
      append_output_file(target.string(), "Markdown summary", whole);
    } else {
      OutputFile file(target.string(), "report");
      file.write(chunk);
      say_ready();
      for (;;) {
        file.write(chunk);
        ::usleep(1000);
      }
    }
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte;
  const bool started = ::read(ready[0], &byte, 1) == 1;
  ::close(ready[0]);
  for (int waited = 0; started && reading && !*reading && waited < 10000; ++waited) ::usleep(1000);
  ::kill(pid, signal_number);
  ChildResult result;
  ::waitpid(pid, &result.status, 0);
  result.err = read_text(dir / "child.err");
  return result;
}

class Interrupt : public Output, public ::testing::WithParamInterface<int> {};

TEST_P(Interrupt, RemovesTheTemporaryAndSaysWhatWasInterrupted) {
  const fs::path target = dir / "report.json";
  write_text(target, "old report");
  const ChildResult child = interrupted_writer(dir, target, false, GetParam());
  ASSERT_TRUE(WIFSIGNALED(child.status)) << child.err;
  EXPECT_EQ(WTERMSIG(child.status), GetParam());  // died of the same signal
  EXPECT_EQ(child.err, "mishbench: interrupted while writing report '" + target.string() +
                           "'; nothing was written\n");
  EXPECT_EQ(read_text(target), "old report");
  EXPECT_TRUE(others({"report.json", "child.err"}).empty());
}

// The interrupts, and signals that end a process as they do: the user's (SIGUSR1), a pipe's
// (SIGPIPE: the tool ignores it, a library user may not), a timer's, a real-time one.
INSTANTIATE_TEST_SUITE_P(Signals, Interrupt,
                         ::testing::Values(SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGPIPE,
                                           SIGALRM, SIGRTMIN + 1),
                         [](const auto& info) {
                           return info.param == SIGRTMIN + 1 ? std::string("SIGRTMIN_1")
                                                             : std::string("SIG") +
                                                                   sigabbrev_np(info.param);
                         });

// A FIFO reader that takes a few bytes (then sets `got_bytes`) and stops reading, so that the
// writer blocks in write() until the reader closes, well after the parent's signal.
std::thread slow_reader(const fs::path& fifo, std::atomic<bool>& got_bytes) {
  return std::thread([fifo, &got_bytes] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char some[16];
    if (::read(fd, some, sizeof(some)) <= 0) ADD_FAILURE() << "nothing arrived";
    got_bytes = true;
    ::usleep(300000);
    ::close(fd);
  });
}

TEST_F(Output, InterruptedWriteOrAppendToAFifoSaysItIsIncomplete) {
  for (const bool append : {false, true}) {
    const fs::path fifo = dir / (append ? "summary" : "pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::atomic<bool> reading{false};
    std::thread reader = slow_reader(fifo, reading);
    const ChildResult child = interrupted_writer(dir, fifo, append, SIGTERM, &reading);
    reader.join();
    ASSERT_TRUE(WIFSIGNALED(child.status)) << child.err;
    EXPECT_EQ(child.err, std::string("mishbench: interrupted while writing ") +
                             (append ? "Markdown summary" : "report") + " '" + fifo.string() +
                             "'; what it received is incomplete\n");
    struct stat status {};
    ASSERT_EQ(::stat(fifo.c_str(), &status), 0);
    EXPECT_TRUE(S_ISFIFO(status.st_mode));
  }
}

// A regular file's append cannot be caught half-way from outside (writes to regular files do
// not block), so the handler's part is driven directly: a registered append, then a signal.
TEST_F(Output, InterruptCutsAnAppendedFileBack) {
  const fs::path path = dir / "summary.md";
  write_text(path, "step one\nhalf of step t");
  const ChildResult child = in_child(dir / "child.err", [&] {
    install_interrupt_cleanup();
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
    Registration appending;
    appending.append_fd = fd;
    appending.restore_size = 9;  // "step one\n"
    register_output(appending, "Markdown summary", path.string());
    ::raise(SIGTERM);
    return child_failure("survived SIGTERM");
  });
  ASSERT_TRUE(WIFSIGNALED(child.status)) << child.err;
  EXPECT_EQ(child.err, "mishbench: interrupted while writing Markdown summary '" + path.string() +
                           "'; nothing was appended\n");
  EXPECT_EQ(read_text(path), "step one\n");
}

TEST_F(Output, InterruptWithNothingBeingWrittenSaysInterrupted) {
  const ChildResult child = in_child(dir / "child.err", [] {
    install_interrupt_cleanup();
    ::raise(SIGTERM);
    return child_failure("survived SIGTERM");
  });
  ASSERT_TRUE(WIFSIGNALED(child.status)) << child.err;
  EXPECT_EQ(WTERMSIG(child.status), SIGTERM);
  EXPECT_EQ(child.err, "mishbench: interrupted\n");
}

TEST_F(Output, ASignalThatIsNoInterruptWithNothingBeingWrittenSaysNothing) {
  const ChildResult child = in_child(dir / "child.err", [] {
    install_interrupt_cleanup();
    ::raise(SIGUSR1);
    return child_failure("survived SIGUSR1");
  });
  ASSERT_TRUE(WIFSIGNALED(child.status)) << child.err;
  EXPECT_EQ(WTERMSIG(child.status), SIGUSR1);
  EXPECT_EQ(child.err, "");
}

TEST_F(Output, ASignalHandledBySomeoneElseStaysTheirs) {
  const ChildResult child = in_child(dir / "child.err", [] {
    static volatile sig_atomic_t seen = 0;
    ::signal(SIGUSR2, [](int) { seen = 1; });
    install_interrupt_cleanup();
    ::raise(SIGUSR2);
    return seen == 1 ? 0 : child_failure("the other handler did not run");
  });
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
}

TEST_F(Output, AnIgnoredSignalStaysIgnored) {
  const ChildResult child = in_child(dir / "child.err", [] {
    ::signal(SIGHUP, SIG_IGN);  // as under nohup
    install_interrupt_cleanup();
    ::raise(SIGHUP);
    return 0;
  });
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << child.err;
  EXPECT_EQ(child.err, "");
}

}  // namespace
}  // namespace mish
