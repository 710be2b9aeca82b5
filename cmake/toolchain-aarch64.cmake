# Cross-compiling cnoise for 64-bit ARM (AArch64, NEON) with Debian's cross toolchain, and running
# its C tests under qemu-user: scripts/test-neon.sh uses this file. Packages (Debian/Ubuntu):
#   gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
# Usage: cmake -S . -B build-neon -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
#          -DCNOISE_BUILD_CLI=OFF -DCNOISE_BUILD_BENCH=OFF
# CNOISE_AARCH64_TRIPLE (default aarch64-linux-gnu) and CNOISE_AARCH64_SYSROOT (default
# /usr/<triple>, where Debian's libc6-dev-arm64-cross puts the target's libc) can be overridden.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT CNOISE_AARCH64_TRIPLE)
  set(CNOISE_AARCH64_TRIPLE aarch64-linux-gnu)
endif()
if(NOT CNOISE_AARCH64_SYSROOT)
  set(CNOISE_AARCH64_SYSROOT /usr/${CNOISE_AARCH64_TRIPLE})
endif()
# try_compile projects re-read this file: pass the two settings on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CNOISE_AARCH64_TRIPLE CNOISE_AARCH64_SYSROOT)

set(CMAKE_C_COMPILER ${CNOISE_AARCH64_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${CNOISE_AARCH64_TRIPLE}-g++)

# Libraries and headers come from the target's tree only; programs from the host.
set(CMAKE_FIND_ROOT_PATH ${CNOISE_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs every test executable through qemu-user, with the target's dynamic loader and
# libraries found under the sysroot.
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;${CNOISE_AARCH64_SYSROOT}")
