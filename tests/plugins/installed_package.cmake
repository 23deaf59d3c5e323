# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DC_COMPILER=...
#       -DCXX_COMPILER=... -DC_RELEASE_FLAGS=... -DCXX_RELEASE_FLAGS=... -DCONFIG=... -DPROBE=...
#       -P installed_package.cmake
#
# What a user's repository does with an installed mishbench: install this build into a scratch
# prefix, configure and build examples/plugins/host on its own against the installed package
# (find_package(mishbench) + mishbench_add_plugin) as docs/plugins.md says, without a build type,
# load the library it built the way mishbench does (PROBE), and run it end to end through the
# installed binary: verified, timed, reported. The plugin is optimized all the same, and the
# report says how it was built; a build type chosen is kept, a library built by hand is
# "unknown". The host walkthrough of docs/plugins.md, taken from the page, builds in a project
# of C++ alone.
include(${CMAKE_CURRENT_LIST_DIR}/../scripts/run_command.cmake)

# Configures and builds the plugin project `source` in `build` against the installed package,
# with the extra cache arguments given.
function(build_plugin source build)
  run(${CMAKE_COMMAND} -S ${source} -B ${build} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${ARGN})
  run(${CMAKE_COMMAND} --build ${build})
endfunction()

# The compile command of `source` in `build`'s compile_commands.json, into `out`.
function(compile_command build source out)
  file(READ ${build}/compile_commands.json commands)
  string(JSON count LENGTH "${commands}")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON file GET "${commands}" ${i} file)
    if(file MATCHES "/${source}$")
      string(JSON command GET "${commands}" ${i} command)
      set(${out} "${command}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no compile command for ${source} in ${build}:\n${commands}")
endfunction()

# What PROBE says the loader recorded as `library`'s build info, into `out`.
function(probed_build_info library out)
  run(${PROBE} ${library})
  if(NOT output MATCHES "\nbuild_info ([^\n]*)\n")
    message(FATAL_ERROR "the probe of ${library} says no build_info:\n${output}")
  endif()
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

# Runs plugin `library`'s backend `backend` beside cpu through the installed binary, small,
# with a report; the backend must verify. The report goes into `out`.
function(run_verified library backend out)
  run(${prefix}/bin/mishbench --plugin ${library} --backend=${backend},cpu --m 32 --n 64 --k 128
      --iters 3 --warmup 1 --json ${WORK_DIR}/${backend}.json -q)
  if(NOT output MATCHES "${backend} +ok")
    message(FATAL_ERROR "${backend} did not verify through the installed mishbench:\n${output}")
  endif()
  file(READ ${WORK_DIR}/${backend}.json report)
  set(${out} "${report}" PARENT_SCOPE)
endfunction()

# `text` starts with `start` and ends with `end`, or the test fails naming `what`.
function(expect_around what text start end)
  string(FIND "${text}" "${start}" at)
  string(LENGTH "${text}" length)
  string(LENGTH "${end}" end_length)
  math(EXPR tail_at "${length} - ${end_length}")
  if(tail_at LESS 0)
    set(tail_at 0)
  endif()
  string(SUBSTRING "${text}" ${tail_at} -1 tail)
  if(NOT at EQUAL 0 OR NOT tail STREQUAL "${end}")
    message(FATAL_ERROR "${what} is '${text}': expected '${start}...${end}'")
  endif()
endfunction()

# The fenced block of docs/plugins.md whose text starts with `first_line`, into `out`.
function(walkthrough_block first_line out)
  file(READ ${SOURCE_DIR}/docs/plugins.md page)
  string(FIND "${page}" "\n${first_line}\n" start)
  if(start EQUAL -1)
    message(FATAL_ERROR "docs/plugins.md has no block starting '${first_line}'")
  endif()
  math(EXPR start "${start} + 1")
  string(SUBSTRING "${page}" ${start} -1 rest)
  string(FIND "${rest}" "\n```" end)
  string(SUBSTRING "${rest}" 0 ${end} block)
  set(${out} "${block}\n" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(plugin_build ${WORK_DIR}/host-plugin)
set(debug_build ${WORK_DIR}/host-plugin-debug)
set(walkthrough ${WORK_DIR}/mine-host)
file(REMOVE_RECURSE ${WORK_DIR})

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
foreach(file bin/mishbench bin/mishbench-plot include/mishbench/plugin.h
             lib/cmake/mishbench/mishbench-config.cmake
             lib/cmake/mishbench/mishbench-config-version.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()

# As documented: no build type. The compiler still gets the Release flags, and only them.
build_plugin(${SOURCE_DIR}/examples/plugins/host ${plugin_build} -DCMAKE_C_COMPILER=${C_COMPILER})
compile_command(${plugin_build} host_loops.c command)
string(FIND "${command}" " ${C_RELEASE_FLAGS} " at)
if(at EQUAL -1)
  message(FATAL_ERROR "without a build type, host_loops.c is not compiled with the Release "
                      "flags '${C_RELEASE_FLAGS}':\n${command}")
endif()
set(default_info "build type: none, so mishbench_add_plugin's default (Release flags); C flags:")
probed_build_info(${plugin_build}/libhost_loops.so info)
expect_around("the build info of the default build" "${info}" "${default_info}"
              " ${C_RELEASE_FLAGS}")

run(${PROBE} ${plugin_build}/libhost_loops.so)
if(NOT output MATCHES "abi_version 1\nbackends host-loops\n")
  message(FATAL_ERROR "the plugin built against the installed package loads as:\n${output}")
endif()

# A build type chosen is the one used.
build_plugin(${SOURCE_DIR}/examples/plugins/host ${debug_build} -DCMAKE_C_COMPILER=${C_COMPILER}
             -DCMAKE_BUILD_TYPE=Debug)
compile_command(${debug_build} host_loops.c command)
string(FIND "${command}" " ${C_RELEASE_FLAGS} " at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "a Debug build got the Release flags:\n${command}")
endif()
probed_build_info(${debug_build}/libhost_loops.so info)
expect_around("the build info of the Debug build" "${info}" "build type: Debug; C flags:" "")

# By hand, as docs/plugins.md shows: nothing to say how.
run(${C_COMPILER} -std=c99 -O2 -shared -fPIC -fvisibility=hidden -I ${prefix}/include
    ${SOURCE_DIR}/examples/plugins/host/host_loops.c -o ${WORK_DIR}/libhand_built.so -lm)
probed_build_info(${WORK_DIR}/libhand_built.so info)
if(NOT info STREQUAL "unknown")
  message(FATAL_ERROR "a plugin built by hand has the build info '${info}'")
endif()

run(${prefix}/bin/mishbench --plugin ${plugin_build}/libhost_loops.so --list-backends)
if(NOT output MATCHES "cpu +host" OR NOT output MATCHES "host-loops +host +plugin")
  message(FATAL_ERROR "the installed mishbench lists:\n${output}")
endif()

# The installed plot script runs under its installed name (--help needs no matplotlib).
run(${prefix}/bin/mishbench-plot --help)
if(NOT output MATCHES "usage: mishbench-plot")
  message(FATAL_ERROR "the installed mishbench-plot --help prints:\n${output}")
endif()

# The run a user's CI job makes: the plugin in a worker process, beside a built-in, one report.
run_verified(${plugin_build}/libhost_loops.so host-loops report)
string(JSON origin GET "${report}" results 0 origin kind)
string(JSON isolated GET "${report}" results 0 isolation)
if(NOT origin STREQUAL "plugin" OR isolated STREQUAL "null")
  message(FATAL_ERROR "the report does not say the plugin ran isolated:\n${report}")
endif()
string(JSON info GET "${report}" results 0 origin build_info)
expect_around("the report's build info" "${info}" "${default_info}" " ${C_RELEASE_FLAGS}")

# The host walkthrough of docs/plugins.md, as the page has it: C++ alone, no CUDA anywhere.
walkthrough_block("// mine_host.cpp: y = mish(mish(x W^T + b)) in fp32 on the host, with plain loops."
                  source)
walkthrough_block("cmake_minimum_required(VERSION 3.24)\nproject(mine_host LANGUAGES CXX)" lists)
file(WRITE ${walkthrough}/mine_host.cpp "${source}")
file(WRITE ${walkthrough}/CMakeLists.txt "${lists}")
build_plugin(${walkthrough} ${walkthrough}/build -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
file(STRINGS ${walkthrough}/build/CMakeCache.txt cuda REGEX "^CMAKE_CUDA_COMPILER:")
if(cuda)
  message(FATAL_ERROR "the walkthrough's C++ project looked for a CUDA compiler: ${cuda}")
endif()
run_verified(${walkthrough}/build/libmine_host.so mine-host report)
string(JSON info GET "${report}" results 0 origin build_info)
string(REPLACE "C flags:" "CXX flags:" cxx_default_info "${default_info}")
expect_around("the walkthrough's build info" "${info}" "${cxx_default_info}"
              " ${CXX_RELEASE_FLAGS}")

file(REMOVE_RECURSE ${WORK_DIR})
