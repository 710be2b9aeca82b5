# Cross-compiling cnoise for 64-bit Windows with Debian's mingw-w64 toolchain, and running its C
# tests under wine: scripts/test-windows.sh uses this file. Packages (Debian/Ubuntu):
#   gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64
# Usage: cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake \
#          -DCNOISE_BUILD_CLI=OFF -DCNOISE_BUILD_BENCH=OFF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CN_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${CN_MINGW_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${CN_MINGW_TRIPLE}-g++)
set(CMAKE_RC_COMPILER ${CN_MINGW_TRIPLE}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${CN_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Programs are self-contained (no libgcc or winpthread DLLs beside them), so wine runs them as
# they are; ctest runs every test executable through wine.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
set(CMAKE_CROSSCOMPILING_EMULATOR wine)

# pkg-config looks only at the Windows prefix (it would otherwise offer the build machine's
# libraries, for Linux); and C99's printf formats (%zu, %lld) from mingw-w64's own stdio rather
# than the system's msvcrt, which lacks them.
set(ENV{PKG_CONFIG_LIBDIR} ${CMAKE_FIND_ROOT_PATH}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_C_FLAGS_INIT "-D__USE_MINGW_ANSI_STDIO=1")
set(CMAKE_CXX_FLAGS_INIT "-D__USE_MINGW_ANSI_STDIO=1")
