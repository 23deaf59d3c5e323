#include "app/cli/subcommand_failures.h"

#include <fmt/format.h>

#include <new>
#include <system_error>

#include "app/cli/out_of_memory.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/output_file.h"

namespace mish {
namespace {

constexpr size_t kForeignMessageLimit = 300;  // messages of exceptions that are not ours

int fail(const SubcommandMessages& messages, int code, std::string_view message) {
  fmt::print(stderr, "mishbench {}: {}\n", messages.name, message);
  return code;
}

}  // namespace

int run_reporting_failures(const SubcommandMessages& messages, const std::function<int()>& body) {
  install_interrupt_cleanup();
  exit_3_when_out_of_memory(fmt::format("mishbench {}: {}", messages.name, messages.out_of_memory));
  try {
    return body();
  } catch (const UsageError& error) {
    return fail(messages, kExitUsage, error.what());
  } catch (const EnvironmentError& error) {
    return fail(messages, kExitEnvironment, error.what());
  } catch (const std::bad_alloc&) {
    return fail(messages, kExitEnvironment, messages.out_of_memory);
  } catch (const std::system_error& error) {  // printing: stdout closed or full
    return fail(messages, kExitEnvironment,
                fmt::format("{}: {}", messages.printing,
                            for_terminal(error.what(), kForeignMessageLimit)));
  } catch (const std::exception& error) {  // a report content the subcommand does not expect
    return fail(messages, kExitUsage,
                fmt::format("{}: {}", messages.unexpected,
                            for_terminal(error.what(), kForeignMessageLimit)));
  }
}

}  // namespace mish
