# cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONFIG=... -P test_installed_help.cmake
#
# An installed mishbench has no source tree beside it: install this build into a scratch prefix
# and check that the data files it ships are there (share/mishbench/: configs, docs with the
# report's JSON Schema, scripts/plot.py), and that every file the installed binary's help names,
# mishbench --help and each subcommand's, exists: each is an absolute path into the prefix, none
# a path relative to a source tree.
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
foreach(file configs/ci.json configs/default.json docs/methodology.md docs/report-schema.json
             docs/report-schema.md scripts/plot.py)
  if(NOT EXISTS ${prefix}/share/mishbench/${file})
    message(FATAL_ERROR "cmake --install did not install share/mishbench/${file}")
  endif()
endforeach()

set(named 0)
foreach(command "" compare ab merge)
  run(${prefix}/bin/mishbench ${command} --help)
  # A file of the source tree's folders as written there: it does not exist for this binary.
  string(REGEX MATCHALL "(^|[ ('\"`=])(configs|docs|scripts|include)/[A-Za-z0-9_./-]+" relative
         "${output}")
  if(relative)
    message(FATAL_ERROR "'mishbench ${command} --help' names source-tree paths (${relative}), "
                        "which the installed binary does not have:\n${output}")
  endif()
  string(REGEX MATCHALL "(^|[ ('\"`=])/[A-Za-z0-9_./-]+" absolute "${output}")
  foreach(path IN LISTS absolute)
    string(REGEX REPLACE "^[ ('\"`=]" "" path "${path}")
    string(REGEX REPLACE "\\.+$" "" path "${path}")
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "'mishbench ${command} --help' names ${path}, which does not exist")
    endif()
    string(FIND "${path}" "${prefix}/" at)
    if(NOT at EQUAL 0)
      message(FATAL_ERROR "'mishbench ${command} --help' names ${path}, outside the prefix")
    endif()
    math(EXPR named "${named} + 1")
  endforeach()
endforeach()
# --distribution, --plugin and --solution name docs/methodology.md, the header and
# docs/solutions.md; the examples configs/ci.json; ab's configs/default.json.
if(named LESS 5)
  message(FATAL_ERROR "the installed help names ${named} files; expected at least 5")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
