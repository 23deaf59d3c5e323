#include <cstdlib>

#include "app/cli/cli.h"

int main(int argc, char** argv) {
  // OpenMP threads of an idle tool must not spin while a worker process computes on the same
  // cores (the run waits on its workers); a user's own setting stands.
  setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
  return mish::run_cli(argc, argv);
}
