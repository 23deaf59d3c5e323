# mishbench_add_plugin(<name> SOURCES <source>...)
#
# Builds lib<name>.so, a plugin for `mishbench --plugin`: a MODULE library of C, C++ or CUDA
# sources that sees mishbench/plugin.h (through mishbench::plugin_api), built
#   - position independent;
#   - with hidden default visibility, so that mishbench_plugin_entry (declared with
#     MISHBENCH_PLUGIN_EXPORT) is the only symbol its sources export;
#   - with --no-undefined, so a missing symbol fails the build instead of the load;
#   - against the shared CUDA runtime, the one mishbench itself uses, so the plugin and the tool
#     share one runtime, one context and one error state.
# Add libraries with target_link_libraries(<name> PRIVATE ...) as for any target.
function(mishbench_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mishbench_add_plugin(${name}): unexpected arguments "
                        "'${arg_UNPARSED_ARGUMENTS}'; "
                        "usage: mishbench_add_plugin(NAME SOURCES ...)")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "mishbench_add_plugin(${name}): no sources; usage: "
                        "mishbench_add_plugin(NAME SOURCES file.cu ...)")
  endif()
  add_library(${name} MODULE ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE mishbench::plugin_api)
  set_target_properties(${name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    CUDA_RUNTIME_LIBRARY Shared)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${name} PRIVATE "LINKER:--no-undefined")
  endif()
endfunction()
