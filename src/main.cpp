#include "cli/cli.h"

int main(int argc, char** argv) { return mish::run_cli(argc, argv); }
