// exit() or quick_exit() called by code that is not the tool's: a plugin loaded into the tool's
// own process (--isolate none) that calls exit(0) while it loads or runs would end the tool with
// the status it chose, 0 included, and no table, no report. Between guard_exits() and
// allow_exit(), such a call instead cleans up the outputs being written, prints one line, and
// ends the process with exit code 1.
#pragma once

namespace mish {

void guard_exits();  // at the start of the tool
void allow_exit();   // when the tool itself is about to return from main

}  // namespace mish
