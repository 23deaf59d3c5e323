#include "hostile_table.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "mishbench_process.h"
#include "report_fixture.h"

namespace mish {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Every file under `dir` (not following links) with its bytes, or its kind for special files.
void snapshot_into(const fs::path& root, const fs::path& dir,
                   std::map<std::string, std::string>& files) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().lexically_relative(root).string();
    const fs::file_status status = entry.symlink_status(error);
    if (fs::is_symlink(status)) {
      files[name] = "link to " + fs::read_symlink(entry.path(), error).string();
    } else if (fs::is_directory(status)) {
      files[name] = "folder";
      snapshot_into(root, entry.path(), files);
    } else if (fs::is_regular_file(status)) {
      files[name] =
          fs::file_size(entry.path()) > (1u << 26) ? "large file" : read_bytes(entry.path());
    } else {
      files[name] = "kind " + std::to_string(static_cast<int>(status.type()));
    }
  }
}

std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  snapshot_into(dir, dir, files);
  return files;
}

bool has_raw_control_character(const std::string& text) {
  for (const char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) return true;
  return false;
}

// Whether the row lets the run change or create `name`.
bool may_write(const HostileInput& row, const std::string& name) {
  return std::any_of(row.writes.begin(), row.writes.end(), [&](const std::string& written) {
    if (written.empty() || written.back() != '/') return name == written;
    return name == written.substr(0, written.size() - 1) || name.rfind(written, 0) == 0;
  });
}

}  // namespace

void PrintTo(const HostileInput& row, std::ostream* out) { *out << row.name; }

json base_report() { return make_report(noisy_samples(2.7, 1)); }

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

Setup text(std::string name, std::string bytes) {
  return [name, bytes](const fs::path& dir) {
    write_bytes(dir / name, bytes);
    return std::string();
  };
}

Setup repeated_text(std::string name, std::string prefix, size_t count, char fill,
                    std::string suffix) {
  return [name, prefix, count, fill, suffix](const fs::path& dir) {
    write_bytes(dir / name, prefix + std::string(count, fill) + suffix);
    return std::string();
  };
}

Setup folder(std::string name) {
  return [name](const fs::path& dir) {
    fs::create_directories(dir / name);
    return std::string();
  };
}

Setup symlink(std::string target, std::string name) {
  return [target, name](const fs::path& dir) {
    fs::create_symlink(target, dir / name);
    return std::string();
  };
}

Setup hard_link(std::string target, std::string name) {
  return [target, name](const fs::path& dir) {
    fs::create_hard_link(dir / target, dir / name);
    return std::string();
  };
}

Setup chmod(std::string name, fs::perms perms) {
  return [name, perms](const fs::path& dir) {
    fs::permissions(dir / name, perms);
    return std::string();
  };
}

Setup unix_socket(std::string name) {
  return [name](const fs::path& dir) {
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, (dir / name).c_str(), sizeof(address.sun_path) - 1);
    const int bound = ::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::close(sock);  // the socket file stays
    return bound == 0 ? std::string() : std::string("cannot bind a socket: ") + strerror(errno);
  };
}

Setup fifo(std::string name) {
  return [name](const fs::path& dir) {
    return ::mkfifo((dir / name).c_str(), 0644) == 0
               ? std::string()
               : std::string("cannot make a FIFO: ") + strerror(errno);
  };
}

Setup device_copy(std::string name, unsigned minor) {
  return [name, minor](const fs::path& dir) {
    if (::mknod((dir / name).c_str(), S_IFCHR | 0666, makedev(1, minor)) != 0)
      return std::string("mknod is not allowed here: ") + strerror(errno);
    std::ofstream probe(dir / name);
    return probe ? std::string() : std::string("device nodes cannot be opened here");
  };
}

Setup sparse_file(std::string name, uintmax_t bytes) {
  return [name, bytes](const fs::path& dir) {
    write_bytes(dir / name, "{");
    fs::resize_file(dir / name, bytes);
    return std::string();
  };
}

Setup both(Setup first, Setup second) {
  return [first, second](const fs::path& dir) {
    const std::string why = first(dir);
    return why.empty() ? second(dir) : why;
  };
}

Setup non_root(Setup setup) {
  return [setup](const fs::path& dir) {
    return ::geteuid() == 0 ? std::string("root reads and writes whatever the permission bits say")
                            : setup(dir);
  };
}

std::string with_dir(std::string text, const std::string& dir) {
  for (size_t at; (at = text.find("{dir}")) != std::string::npos;) text.replace(at, 5, dir);
  return text;
}

std::string row_name(const ::testing::TestParamInfo<HostileInput>& info) {
  return info.param.name;
}

void Hostile::SetUp() {
  dir = fs::temp_directory_path() /
        ("mish_hostile_" + std::to_string(::getpid()) + "_" + GetParam().name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_bytes(dir / "base.json", base_report().dump());
  write_bytes(dir / "new.json", make_report(noisy_samples(2.7, 2)).dump());
  write_bytes(dir / "slower.json", make_report(noisy_samples(2.7 * 1.05, 2)).dump());
}

void Hostile::TearDown() {
  std::error_code ignored;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ignored))
    fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
  fs::remove_all(dir, ignored);
}

TEST_P(Hostile, IsHandled) {
  const HostileInput& row = GetParam();
  if (row.setup) {
    const std::string why = row.setup(dir);
    if (!why.empty()) GTEST_SKIP() << why;
  }
  const std::map<std::string, std::string> before = snapshot(dir);
  std::vector<std::string> args;
  for (const std::string& arg : row.args) args.push_back(with_dir(arg, dir.string()));

  ProcessOptions options;
  options.stdout_reader_gone = row.stdout_to == "|";
  if (!options.stdout_reader_gone) options.stdout_path = with_dir(row.stdout_to, dir.string());
  options.stderr_path = with_dir(row.stderr_to, dir.string());
  options.closed = row.closed;
  options.limits = row.limits;
  const auto captured = [&](int fd, const std::string& sent_to) {
    return sent_to.empty() && std::find(row.closed.begin(), row.closed.end(), fd) == row.closed.end();
  };
  const bool out_captured = captured(1, row.stdout_to), err_captured = captured(2, row.stderr_to);
  const ProcessResult r = run_mishbench(args, dir.string(), options);
  ASSERT_FALSE(r.timed_out) << "hung";
  ASSERT_EQ(r.signal_number, 0) << "killed by signal " << r.signal_number << "\n" << r.err;
  EXPECT_EQ(r.exit_code, row.exit_code) << r.err << r.out.substr(0, 2000);
  const std::string says = with_dir(row.says, dir.string());
  const bool failed = row.exit_code >= 2;
  const std::string& where = failed ? r.err : r.out;
  if (failed ? err_captured : out_captured)
    EXPECT_NE(where.find(says), std::string::npos)
        << "expected: " << says << "\nstderr: " << r.err << "\nstdout: " << r.out.substr(0, 2000);
  else
    EXPECT_EQ(says, "") << "the stream it would be on is not captured";
  if (row.exit_code == 2) EXPECT_EQ(r.out, "");  // refused before any work
  if (failed && err_captured) {
    EXPECT_EQ(r.err.rfind("mishbench", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "expected one line:\n" << r.err;
  }
  EXPECT_LT(r.out.size() + r.err.size(), 65536u);
  EXPECT_FALSE(has_raw_control_character(r.out)) << r.out;
  EXPECT_FALSE(has_raw_control_character(r.err)) << r.err;

  std::map<std::string, std::string> after = snapshot(dir);
  for (const auto& [name, content] : before) {
    ASSERT_TRUE(after.count(name)) << name << " was removed";
    if (!may_write(row, name)) EXPECT_TRUE(after[name] == content) << name << " changed";
  }
  for (const auto& [name, content] : after) {
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "temporary file left: " << name;
    EXPECT_TRUE(before.count(name) || may_write(row, name)) << "left behind: " << name;
  }
}

}  // namespace mish
