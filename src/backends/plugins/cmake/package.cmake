# The plugin interface target, `cmake --install` (binary, header, CMake package, data files) and
# the in-tree stand-in for the package, so examples/plugins builds the same way in this tree and
# outside it.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

add_library(mishbench_plugin_api INTERFACE)
add_library(mishbench::plugin_api ALIAS mishbench_plugin_api)
target_include_directories(mishbench_plugin_api INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(mishbench_plugin_api PROPERTIES EXPORT_NAME plugin_api)
include(${CMAKE_CURRENT_LIST_DIR}/mishbench-add-plugin.cmake)

file(STRINGS ${PROJECT_SOURCE_DIR}/include/mishbench/plugin.h abi_line
     REGEX "^#define MISHBENCH_PLUGIN_ABI_VERSION [0-9]+$")
string(REGEX REPLACE ".* " "" MISHBENCH_PLUGIN_ABI_VERSION "${abi_line}")

set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/mishbench)
# The installed binary finds the CUDA and BLAS libraries it was linked against. The build tree's
# binary gets the same RUNPATH when linked: left to be rewritten on install, CMake would end it
# with an empty entry (the current folder, where a stray libm.so.6 or libfmt.so.9 would then be
# loaded); both link only libraries outside the project, so one RUNPATH serves both places.
set(runpath_as_installed INSTALL_RPATH_USE_LINK_PATH ON BUILD_WITH_INSTALL_RPATH ON)
set_target_properties(mishbench PROPERTIES ${runpath_as_installed})
install(TARGETS mishbench EXPORT mishbench-targets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The solution worker's library (its Python files: src/backends/solutions/CMakeLists.txt).
set_target_properties(mishbench_worker PROPERTIES ${runpath_as_installed})
install(TARGETS mishbench_worker LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS mishbench_plugin_api EXPORT mishbench-targets)
install(FILES ${PROJECT_SOURCE_DIR}/include/mishbench/plugin.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mishbench)
install(EXPORT mishbench-targets NAMESPACE mishbench:: DESTINATION ${package_dir})
# What the help and the messages name (env/install_layout.h: with_shipped_paths), in folders of
# the source tree's names under share/mishbench/: the configs, the docs with the report's JSON
# Schema, and the plotting script.
set(data_dir ${CMAKE_INSTALL_DATADIR}/mishbench)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${data_dir}/configs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${data_dir}/docs)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/plot.py DESTINATION ${data_dir}/scripts)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mishbench-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/package/mishbench-config.cmake
  INSTALL_DESTINATION ${package_dir} PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/package/mishbench-config-version.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/mishbench-config.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/package/mishbench-config-version.cmake
              ${CMAKE_CURRENT_LIST_DIR}/mishbench-add-plugin.cmake
        DESTINATION ${package_dir})

# In this tree, find_package(mishbench) finds this file first (CMake's package redirects
# folder): the targets already exist, and the binary is the one being built (its path as a
# generator expression, for add_test and custom commands).
add_executable(mishbench::mishbench ALIAS mishbench)
file(WRITE ${CMAKE_FIND_PACKAGE_REDIRECTS_DIR}/mishbench-config.cmake
  "set(MISHBENCH_EXECUTABLE \"$<TARGET_FILE:mishbench>\")\n"
  "set(MISHBENCH_PLUGIN_ABI_VERSION ${MISHBENCH_PLUGIN_ABI_VERSION})\n")
file(COPY ${CMAKE_CURRENT_BINARY_DIR}/package/mishbench-config-version.cmake
     DESTINATION ${CMAKE_FIND_PACKAGE_REDIRECTS_DIR})
