# mishbench_add_plugin(<name> SOURCES <source>...)
#
# Builds lib<name>.so, a plugin for `mishbench --plugin`: a MODULE library of C, C++ or CUDA
# sources that sees mishbench/plugin.h (through mishbench::plugin_api), built
#   - position independent;
#   - with hidden default visibility, so that mishbench_plugin_entry (declared with
#     MISHBENCH_PLUGIN_EXPORT) is the only symbol its sources export;
#   - with --no-undefined, so a missing symbol fails the build instead of the load;
#   - against the shared CUDA runtime, the one mishbench itself uses, so the plugin and the tool
#     share one runtime, one context and one error state;
#   - optimized when no build type is chosen: with a single-configuration generator and an empty
#     CMAKE_BUILD_TYPE, each language's Release flags (CMAKE_<LANG>_FLAGS_RELEASE, e.g.
#     -O3 -DNDEBUG) are added to its sources, unless CMAKE_<LANG>_FLAGS sets an -O level of its
#     own. A build type the user chose, and multi-configuration generators, are left alone;
#   - with one generated source more, which exports mishbench_plugin_build_info
#     (MISHBENCH_PLUGIN_BUILD_INFO in plugin.h): the build type and the compile flags this
#     function knows of, which mishbench records in the report (the backend's origin).
# Add libraries with target_link_libraries(<name> PRIVATE ...) as for any target.
# Needs at least one of the languages C, CXX or CUDA enabled (project(... LANGUAGES ...)).

# The languages of `sources` among C, CXX and CUDA: a source's LANGUAGE property, else the
# enabled language whose extensions include the file's.
function(_mishbench_plugin_languages out)
  set(languages)
  foreach(source IN LISTS ARGN)
    get_source_file_property(language "${source}" LANGUAGE)
    if(NOT language)
      get_filename_component(extension "${source}" LAST_EXT)
      string(REGEX REPLACE "^\\." "" extension "${extension}")
      foreach(candidate C CXX CUDA)
        if(CMAKE_${candidate}_COMPILER_LOADED AND
           extension IN_LIST CMAKE_${candidate}_SOURCE_FILE_EXTENSIONS)
          set(language ${candidate})
          break()
        endif()
      endforeach()
    endif()
    if(language MATCHES "^(C|CXX|CUDA)$")
      list(APPEND languages ${language})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES languages)
  set(${out} "${languages}" PARENT_SCOPE)
endfunction()

# `text` fit for the inside of a C string literal and of a generator expression.
function(_mishbench_plugin_quote out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE ">" "$<ANGLE-R>" text "${text}")
  string(REPLACE "," "$<COMMA>" text "${text}")
  string(REPLACE ";" "$<SEMICOLON>" text "${text}")
  string(STRIP "${text}" text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Adds to plugin `name` a generated source that defines mishbench_plugin_build_info, per
# configuration: "build type: T; <LANG> flags: F" for each of its languages. `optimized`: the
# languages given Release's flags when no build type is set.
function(_mishbench_plugin_build_info name languages optimized)
  set(configs Debug Release RelWithDebInfo MinSizeRel ${CMAKE_CONFIGURATION_TYPES}
              ${CMAKE_BUILD_TYPE})
  list(REMOVE_DUPLICATES configs)
  set(none "build type: none")
  foreach(language IN LISTS languages)
    if(language IN_LIST optimized)
      string(APPEND none ", so mishbench_add_plugin's default (Release flags)")
      break()
    endif()
  endforeach()
  set(info "$<$<CONFIG:>:${none}>")
  foreach(config IN LISTS configs)
    string(APPEND info "$<$<CONFIG:${config}>:build type: ${config}>")
  endforeach()
  set(known "${configs}")
  string(REPLACE ";" "," known "${known}")
  string(APPEND info "$<$<NOT:$<OR:$<CONFIG:>,$<CONFIG:${known}>>>:build type: $<CONFIG>>")
  foreach(language IN LISTS languages)
    _mishbench_plugin_quote(flags "${CMAKE_${language}_FLAGS}")
    string(APPEND info "; ${language} flags:")
    if(NOT flags STREQUAL "")
      string(APPEND info " ${flags}")
    endif()
    set(by_config)
    if(language IN_LIST optimized)
      list(APPEND by_config "$<CONFIG:>" "${CMAKE_${language}_FLAGS_RELEASE}")
    endif()
    foreach(config IN LISTS configs)
      string(TOUPPER "${config}" upper)
      list(APPEND by_config "$<CONFIG:${config}>" "${CMAKE_${language}_FLAGS_${upper}}")
    endforeach()
    while(by_config)
      list(POP_FRONT by_config condition config_flags)
      _mishbench_plugin_quote(config_flags "${config_flags}")
      if(NOT config_flags STREQUAL "")
        string(APPEND info "$<${condition}: ${config_flags}>")
      endif()
    endwhile()
  endforeach()
  # The generated file is in a language the project enabled.
  set(extension)
  foreach(candidate C CXX CUDA)
    if(CMAKE_${candidate}_COMPILER_LOADED)
      list(GET CMAKE_${candidate}_SOURCE_FILE_EXTENSIONS 0 extension)
      if(candidate STREQUAL "CXX")
        set(extension cpp)
      endif()
      break()
    endif()
  endforeach()
  if(NOT extension)
    message(FATAL_ERROR "mishbench_add_plugin(${name}): enable C, CXX or CUDA first "
                        "(project(... LANGUAGES CXX))")
  endif()
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${name}-build-info")
  if(multi_config)
    string(APPEND file "-$<CONFIG>")
  endif()
  file(GENERATE OUTPUT "${file}.${extension}" CONTENT
"/* Generated by mishbench_add_plugin: how lib${name}.so was built, for mishbench's report. */
#include <mishbench/plugin.h>

MISHBENCH_PLUGIN_EXPORT const char mishbench_plugin_build_info[] =
    \"${info}\";
")
  target_sources(${name} PRIVATE "${file}.${extension}")
endfunction()

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
  # No build type (CMake's default with Makefiles and Ninja) would mean no optimization at all.
  _mishbench_plugin_languages(languages ${arg_SOURCES})
  set(optimized)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi_config)
    foreach(language C CXX CUDA)
      if(CMAKE_${language}_COMPILER_LOADED AND NOT CMAKE_${language}_FLAGS MATCHES "(^| )-O")
        separate_arguments(release NATIVE_COMMAND "${CMAKE_${language}_FLAGS_RELEASE}")
        target_compile_options(${name} PRIVATE
          "$<$<AND:$<CONFIG:>,$<COMPILE_LANGUAGE:${language}>>:${release}>")
        list(APPEND optimized ${language})
      endif()
    endforeach()
  endif()
  _mishbench_plugin_build_info(${name} "${languages}" "${optimized}")
endfunction()
