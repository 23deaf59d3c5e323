# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DC_COMPILER=...
#       -DCONFIG=... -DPROBE=... -P installed_package.cmake
#
# What a user's repository does with an installed mishbench: install this build into a scratch
# prefix, configure and build examples/plugins/host on its own against the installed package
# (find_package(mishbench) + mishbench_add_plugin), load the library it built the way mishbench
# does (PROBE), and run it end to end through the installed binary: verified, timed, reported.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "'${command}' failed (${status}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(plugin_build ${WORK_DIR}/host-plugin)
file(REMOVE_RECURSE ${WORK_DIR})

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
foreach(file bin/mishbench bin/mishbench-plot include/mishbench/plugin.h
             lib/cmake/mishbench/mishbench-config.cmake
             lib/cmake/mishbench/mishbench-config-version.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/plugins/host -B ${plugin_build} -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${plugin_build})

run(${PROBE} ${plugin_build}/libhost_loops.so)
if(NOT output MATCHES "abi_version 1\nbackends host-loops\n")
  message(FATAL_ERROR "the plugin built against the installed package loads as:\n${output}")
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

file(REMOVE_RECURSE ${WORK_DIR})
