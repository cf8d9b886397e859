# Installs the build tree into a scratch prefix, then builds and runs a consumer with find_package(platformpp)
# and a C program with pkg-config, as a game would.
#   -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR=
#   Windows build: -DWINDOWS=ON -DTOOLCHAIN_FILE= -DWINDOWS_DEPS= -DRUNNER=<wine64> -DCROSS_C= -DCROSS_CXX=
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
if(WINDOWS)
  # The DLL in bin/ with its import library in lib/, programs with .exe.
  set(platform_files bin/platformpp.dll lib/libplatformpp_c.dll.a bin/platformpp-emulator.exe)
  set(exe .exe)
  set(cc ${CROSS_C})
  set(cxx ${CROSS_CXX})
  # (platformpp_DIR: the toolchain confines find_package to its own roots, which the scratch prefix is not.)
  set(configure_extra -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE} -DPLATFORMPP_WINDOWS_DEPS=${WINDOWS_DEPS}
    -Dplatformpp_DIR=${prefix}/lib/cmake/platformpp)
  # Programs run under Wine, which finds platformpp.dll on WINEPATH; the static link needs the system libraries.
  set(launch ${CMAKE_COMMAND} -E env WINEPATH=${prefix}/bin ${RUNNER})
  # pkg-config sees the prefix and the Windows libraries' .pc files, nothing of Linux's.
  set(pkg_env PKG_CONFIG_LIBDIR=${prefix}/lib/pkgconfig:${WINDOWS_DEPS}/lib/pkgconfig PKG_CONFIG_PATH=)
  set(static_link -static -static-libgcc -static-libstdc++)
else()
  set(platform_files lib/libplatformpp_c.so bin/platformpp-emulator)
  set(exe "")
  set(cc cc)
  set(cxx c++)
  set(configure_extra "")
  set(launch ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib)
  set(pkg_env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig)
  set(static_link "")
endif()
foreach(required include/platformpp/client.hpp include/platformpp/version.hpp include/platformpp/platformpp_c.h
        include/platformpp/platformpp_c_voice.h lib/pkgconfig/platformpp_c.pc lib/libplatformpp.a
        lib/cmake/platformpp/platformppConfig.cmake lib/pkgconfig/platformpp.pc ${platform_files}
        share/platformpp-emulator/ui/index.html share/platformpp-emulator/ui/console.js
        share/platformpp-emulator/ui/console.css)
  if(NOT EXISTS ${prefix}/${required})
    message(FATAL_ERROR "not installed: ${required}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release ${configure_extra})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${launch} ${WORK_DIR}/build/consumer${exe})
run(${launch} ${WORK_DIR}/build/consumer_c${exe})
# pkg-config: the C ABI.
run(${CMAKE_COMMAND} -E env ${pkg_env} pkg-config --cflags --libs platformpp_c)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pkg_env} pkg-config --cflags --libs platformpp_c
  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${cc} -std=c11 ${SOURCE_DIR}/main.c -o ${WORK_DIR}/pkgconfig_c${exe} ${flags})
run(${launch} ${WORK_DIR}/pkgconfig_c${exe})
# pkg-config: the static C++ library.
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pkg_env} pkg-config --static --cflags --libs platformpp
  OUTPUT_VARIABLE cxxflags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(cxxflags UNIX_COMMAND "${cxxflags}")
run(${cxx} ${SOURCE_DIR}/main.cpp -o ${WORK_DIR}/pkgconfig_cxx${exe} ${cxxflags} ${static_link})
run(${launch} ${WORK_DIR}/pkgconfig_cxx${exe})
