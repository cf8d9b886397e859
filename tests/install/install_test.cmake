# Installs the build tree into a scratch prefix, then builds and runs a consumer with find_package(platformpp)
# and a C program with pkg-config, as a game would.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(required include/platformpp/client.hpp include/platformpp/version.hpp include/platformpp/platformpp_c.h
        include/platformpp/platformpp_c_voice.h lib/libplatformpp_c.so lib/pkgconfig/platformpp_c.pc
        lib/libplatformpp.a lib/cmake/platformpp/platformppConfig.cmake lib/pkgconfig/platformpp.pc bin/platformpp-emulator
        share/platformpp-emulator/ui/index.html share/platformpp-emulator/ui/console.js
        share/platformpp-emulator/ui/console.css)
  if(NOT EXISTS ${prefix}/${required})
    message(FATAL_ERROR "not installed: ${required}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib ${WORK_DIR}/build/consumer_c)
# pkg-config: the C ABI.
run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig pkg-config --cflags --libs platformpp_c)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig pkg-config --cflags --libs
  platformpp_c OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc -std=c11 ${SOURCE_DIR}/main.c -o ${WORK_DIR}/pkgconfig_c ${flags})
run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib ${WORK_DIR}/pkgconfig_c)
# pkg-config: the static C++ library.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig pkg-config --static --cflags
  --libs platformpp OUTPUT_VARIABLE cxxflags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(cxxflags UNIX_COMMAND "${cxxflags}")
run(c++ ${SOURCE_DIR}/main.cpp -o ${WORK_DIR}/pkgconfig_cxx ${cxxflags})
run(${WORK_DIR}/pkgconfig_cxx)
