// The standard streams as a command-line tool may find them: closed (`2>&-`), full
// (`2>/dev/full`), or a pipe whose reader has gone (`| true`). Called first thing in a process,
// so that what the tool prints on them can never take the tool down.
#pragma once
#include <string_view>

namespace mish {

// Fills a closed descriptor 0, 1 or 2 with a placeholder that fails as the closed one would
// (reading 0, or writing 1 or 2, gives EBADF), so that no descriptor the tool opens later (the
// shared memory of a problem's inputs, a report, the socket to a worker) takes the number and
// receives what is meant for the stream, or is handed to a worker in the stream's place.
void reserve_standard_descriptors();

// Makes `stderr` a stream whose writes never fail: each goes straight to descriptor 2, and what
// cannot be written there (closed, full, no reader) is dropped. A message on stderr is a
// courtesy; failing to print it must not turn into an exception inside an error handler, nor
// end a run before its report is written. The exit code still says how the command ended.
void make_stderr_best_effort();

// One line of transient status on descriptor 2, such as a progress bar, drawn in place of the
// last one without a newline. Anything else written to the best-effort stderr erases it first,
// so that a warning starts on a line of its own instead of after the bar; clear_status_line()
// erases it when the work it showed is done.
void show_status_line(std::string_view line);
void clear_status_line();

// SIGPIPE and SIGXFSZ ignored: a write to a pipe whose reader has gone, or past the file size
// limit (ulimit -f), fails with EPIPE or EFBIG, which every writer handles as the failed write it
// is (the files it wrote kept, a temporary removed, an append cut back, one message, exit 3),
// instead of the process dying silently half-way through.
void ignore_write_signals();

}  // namespace mish
