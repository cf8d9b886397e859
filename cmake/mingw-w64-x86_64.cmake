# CMake toolchain file for the Windows x86-64 cross build (docs/windows.md): Debian's MinGW-w64 compilers, POSIX
# threads variant (std::thread, std::mutex), the static libraries tools/build-windows-deps builds into its
# prefix, and Debian's own header-only Boost and RapidJSON. Everything links statically, so a program or
# platformpp.dll needs no MinGW DLL (libgcc, libstdc++, libwinpthread) next to it.
#
# The prefix comes from PLATFORMPP_WINDOWS_DEPS, a cache or environment variable:
#   export PLATFORMPP_WINDOWS_DEPS=$(tools/build-windows-deps)
#   cmake --preset windows
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(platformpp_triplet x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${platformpp_triplet}-gcc-posix)
set(CMAKE_CXX_COMPILER ${platformpp_triplet}-g++-posix)
set(CMAKE_RC_COMPILER ${platformpp_triplet}-windres)

if(NOT PLATFORMPP_WINDOWS_DEPS AND DEFINED ENV{PLATFORMPP_WINDOWS_DEPS})
  set(PLATFORMPP_WINDOWS_DEPS "$ENV{PLATFORMPP_WINDOWS_DEPS}")
endif()
if(NOT PLATFORMPP_WINDOWS_DEPS OR NOT EXISTS "${PLATFORMPP_WINDOWS_DEPS}/versions.txt")
  message(FATAL_ERROR "The Windows build needs the prefix of tools/build-windows-deps: "
    "export PLATFORMPP_WINDOWS_DEPS=$(tools/build-windows-deps) (got '${PLATFORMPP_WINDOWS_DEPS}')")
endif()
set(PLATFORMPP_WINDOWS_DEPS "${PLATFORMPP_WINDOWS_DEPS}" CACHE PATH "Prefix of tools/build-windows-deps" FORCE)
# try_compile projects read this file again, without the cache.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PLATFORMPP_WINDOWS_DEPS)

# Libraries and headers from the prefix and MinGW-w64 only; programs (pkg-config, Python, ...) from the build
# machine.
set(CMAKE_FIND_ROOT_PATH "${PLATFORMPP_WINDOWS_DEPS}" /usr/${platformpp_triplet})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config sees the prefix's .pc files and nothing of Linux's.
set(ENV{PKG_CONFIG_LIBDIR} "${PLATFORMPP_WINDOWS_DEPS}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
unset(ENV{PKG_CONFIG_SYSROOT_DIR})
set(OPENSSL_ROOT_DIR "${PLATFORMPP_WINDOWS_DEPS}")
set(OPENSSL_USE_STATIC_LIBS TRUE)  # FindOpenSSL then also links ws2_32 and crypt32

# Boost and RapidJSON: Debian's headers, through a directory holding only them, since /usr/include as a whole would
# put Linux's headers (OpenSSL's among them) before MinGW-w64's.
set(platformpp_debian_headers "${CMAKE_BINARY_DIR}/debian-headers")
foreach(dir boost rapidjson)
  if(NOT EXISTS "${platformpp_debian_headers}/${dir}")
    file(MAKE_DIRECTORY "${platformpp_debian_headers}")
    file(CREATE_LINK /usr/include/${dir} "${platformpp_debian_headers}/${dir}" SYMBOLIC)
  endif()
endforeach()
set(Boost_INCLUDE_DIR "${platformpp_debian_headers}" CACHE PATH "Boost's headers (Debian's)")
set(Boost_NO_BOOST_CMAKE ON)  # Debian's BoostConfig describes its Linux libraries
set(RAPIDJSON_INCLUDE_DIR "${platformpp_debian_headers}" CACHE PATH "RapidJSON's headers (Debian's)")

# -static takes libgcc, libstdc++ and libwinpthread from their archives (Windows' own DLLs stay DLLs: MinGW-w64
# has only import libraries for them).
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++ -static")
endforeach()

# Test programs run under Wine (wine64: the 64-bit loader, without the wrapper's 32-bit hints), through
# run-under-wine.sh, which sets Wine up and keeps its server from holding a test's output open.
find_program(PLATFORMPP_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(PLATFORMPP_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/run-under-wine.sh")
endif()
