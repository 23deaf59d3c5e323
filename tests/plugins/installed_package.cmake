# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DC_COMPILER=...
#       -DC_RELEASE_FLAGS=... -DCONFIG=... -DPROBE=...
#       -P installed_package.cmake
#
# What a user's repository does with an installed mishbench: install this build into a scratch
# prefix, configure and build examples/plugins/host on its own against the installed package
# (find_package(mishbench) + mishbench_add_plugin) as docs/plugins.md says, without a build type,
# load the library it built the way mishbench does (PROBE), and run it end to end through the
# installed binary: verified, timed, reported. The plugin is optimized all the same, and the
# report says how it was built; a build type chosen is kept, a library built by hand is
# "unknown".
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "'${command}' failed (${status}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

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

set(prefix ${WORK_DIR}/prefix)
set(plugin_build ${WORK_DIR}/host-plugin)
set(debug_build ${WORK_DIR}/host-plugin-debug)
file(REMOVE_RECURSE ${WORK_DIR})

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
foreach(file bin/mishbench include/mishbench/plugin.h lib/cmake/mishbench/mishbench-config.cmake
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

# The run a user's CI job makes: the plugin in a worker process, beside a built-in, one report.
run(${prefix}/bin/mishbench --plugin ${plugin_build}/libhost_loops.so --backend=host-loops,cpu
    --m 32 --n 64 --k 128 --iters 3 --warmup 1 --json ${WORK_DIR}/report.json -q)
if(NOT output MATCHES "host-loops +ok")
  message(FATAL_ERROR "the plugin did not verify through the installed mishbench:\n${output}")
endif()
file(READ ${WORK_DIR}/report.json report)
string(JSON origin GET "${report}" results 0 origin kind)
string(JSON isolated GET "${report}" results 0 isolation)
if(NOT origin STREQUAL "plugin" OR isolated STREQUAL "null")
  message(FATAL_ERROR "the report does not say the plugin ran isolated:\n${report}")
endif()
string(JSON info GET "${report}" results 0 origin build_info)
expect_around("the report's build info" "${info}" "${default_info}" " ${C_RELEASE_FLAGS}")

file(REMOVE_RECURSE ${WORK_DIR})
