// Files the tool writes (reports, comparisons, Markdown summaries, dumps), written so that no
// existing file is damaged: checked before any work, written through a temporary file that is
// renamed over the target only once every byte reached the disk, never replacing a device node,
// a FIFO or one of the inputs, and cleaned up when the run is interrupted. Rules in docs/cli.md
// ("Outputs").
#pragma once
#include <sys/stat.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mish {

// Refuses, before any work, an output path that cannot be written: throws UsageError whose
// one-line message names `flag`, quotes the path and gives the reason (the folder does not exist,
// permission denied, read-only file system, name too long, a folder, a socket, a block device, a
// file under /proc or /sys, a regular file reached through /proc/self/fd), or when the path is
// the same file as one of `inputs` (same device and inode, so also through symbolic or hard
// links). A character device or a FIFO is accepted when writable: it is written in place.
void check_output_path(const std::string& path, std::string_view flag,
                       const std::vector<std::string>& inputs);

// Files the command reads (its config, plugins, solution files, reports): from now on no output
// of this process is written over one of them, whatever name or link leads there; the writers
// check the file they actually open or replace, so a link swapped in after the up-front check
// is refused too (UsageError). A path that names no file is ignored; read_json_input protects
// what it reads itself.
void protect_inputs(const std::vector<std::string>& paths);
void protect_input(const struct stat& status, const std::string& path);

// The same for a folder that will receive files (--dump DIR): it may not exist yet (then its
// parent must be a writable folder); when it exists it must be a writable folder.
void check_output_folder(const std::string& path, std::string_view flag);

// Whether two output paths name the same file: the same inode when both exist, else the same
// path once symbolic links and "..", "." are resolved.
bool same_output(const std::string& a, const std::string& b);

// A file being written. The path is followed as the kernel would (a symbolic link at its end
// leads to the file it points to, which is replaced, not the link) with the folder finally
// reached held open, and everything after is done relative to that folder, never again through
// the path. A regular file (or a new one) is written to a temporary file created beside it
// (O_EXCL, O_NOFOLLOW, named ".<name>.tmp.<pid>.<n>"), every write checked; commit() then checks
// fsync and close and renames it over the target, keeping the old file's permission bits. An
// existing character device or FIFO is written in place, never replaced. A protected input
// (protect_inputs) is never the file replaced or written. Destruction without commit() removes
// the temporary file and leaves any old file as it was.
// Failures: a path that cannot be opened throws UsageError (no such folder, permission denied,
// ...), a failed write, flush or rename (disk full, I/O error) EnvironmentError naming the file
// and the OS's reason; in both cases the old file is intact and no temporary file is left.
class OutputFile {
 public:
  // `what` names the file in messages: "report", "comparison JSON", "dump x.npy".
  OutputFile(std::string path, std::string what);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  void write(const void* data, size_t bytes);
  void write(std::string_view text);
  void commit();

 private:
  void discard() noexcept;  // closes and removes the temporary file; the target is untouched
  [[noreturn]] void fail(int error, std::string_view doing);

  std::string path_, what_;
  int folder_fd_ = -1;     // the folder of the file replaced on commit, held open
  std::string name_;       // that file's name in it
  std::string temporary_;  // the temporary's name in it; empty when written in place
  int fd_ = -1;
  int registration_ = -1;  // slot in the interrupt cleanup list
};

// OutputFile in one call: the whole of `content`, committed.
void write_output_file(const std::string& path, std::string_view what, std::string_view content);

// Appends `content` to `path` in place (created if missing), e.g. a CI job summary such as
// "$GITHUB_STEP_SUMMARY"; the path is followed as OutputFile follows it, and the file opened is
// checked (never a protected input). Write, fsync and close are checked, and when one fails a
// regular file is cut back to its old length before EnvironmentError is thrown.
void append_output_file(const std::string& path, std::string_view what, std::string_view content);

// On any signal that would end the process (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGPIPE, SIGSEGV,
// ...; each unless the process ignores or handles it already, as under nohup): removes every
// temporary file still open and cuts appended files back (async-signal-safe), prints
// "mishbench: interrupted while writing <what> '<path>'; nothing was written" for each (or, for
// SIGINT, SIGTERM and SIGHUP, "mishbench: interrupted" when nothing was being written), then dies
// of the same signal. Calling it again does nothing.
void install_interrupt_cleanup();

}  // namespace mish
