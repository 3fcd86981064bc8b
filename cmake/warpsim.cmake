# Helpers shared by every folder's CMakeLists.txt.

# warpsim_library(<name> SOURCES ... DEPS ...): a static library of warpsim code with warnings as errors.
function(warpsim_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  target_compile_options(${name} PRIVATE ${WARPSIM_WARNINGS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# warpsim_proto_library(<name> PROTOS ... DEPS ...): generated C++ for .proto files given relative to
# the current source folder. Imports and includes are rooted at the source tree, so
# arch/arch.proto imports "arch/op_class.proto" and C++ includes "arch/arch.pb.h".
function(warpsim_proto_library name)
  cmake_parse_arguments(ARG "" "" "PROTOS;DEPS" ${ARGN})
  set(srcs)
  foreach(proto IN LISTS ARG_PROTOS)
    get_filename_component(abs ${proto} ABSOLUTE)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    string(REGEX REPLACE "\\.proto$" "" stem ${rel})
    set(cc ${PROJECT_BINARY_DIR}/${stem}.pb.cc)
    set(h ${PROJECT_BINARY_DIR}/${stem}.pb.h)
    add_custom_command(
      OUTPUT ${cc} ${h}
      COMMAND protobuf::protoc --cpp_out=${PROJECT_BINARY_DIR} -I${PROJECT_SOURCE_DIR} ${abs}
      DEPENDS ${abs} protobuf::protoc
      COMMENT "protoc ${rel}")
    list(APPEND srcs ${cc})
  endforeach()
  add_library(${name} STATIC ${srcs})
  target_link_libraries(${name} PUBLIC protobuf::libprotobuf ${ARG_DEPS})
  target_include_directories(${name} PUBLIC ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
endfunction()

# warpsim_test(<name> SOURCES ... DEPS ...): a GoogleTest executable registered with CTest.
function(warpsim_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${WARPSIM_WARNINGS})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main GTest::gmock)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
                       PROPERTIES ENVIRONMENT "WARPSIM_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()

# warpsim_embed(<out.cc> <symbol> <root> FILES ...): compiles text files into a generated source
# that exposes `const warpsim::EmbeddedFile <symbol>[]` (path relative to <root>, contents).
function(warpsim_embed out symbol root)
  cmake_parse_arguments(ARG "" "" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${symbol} -DROOT=${root}
            "-DFILES=${ARG_FILES}" -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${ARG_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    COMMENT "Embedding ${symbol}"
    VERBATIM)
endfunction()
