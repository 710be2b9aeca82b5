/*
 * cl_api.h -- the part of the OpenCL 1.2 host API that src/opencl.c calls, declared here from
 * the specification (types, the numeric values of the constants, the function signatures), so
 * that the library builds without OpenCL headers and links no OpenCL library: src/opencl.c looks
 * each function up in the ICD loader (libOpenCL.so.1) at run time.
 */
#ifndef CN_CL_API_H
#define CN_CL_API_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && !defined(_WIN64)
#define CN_CLAPI __stdcall /* CL_API_CALL on 32-bit Windows */
#else
#define CN_CLAPI
#endif

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef cl_uint cl_bool;
typedef cl_ulong cl_bitfield;
typedef cl_bitfield cl_device_type;
typedef cl_bitfield cl_mem_flags;
typedef cl_bitfield cl_command_queue_properties;
typedef cl_bitfield cl_device_fp_config;
typedef cl_uint cl_platform_info;
typedef cl_uint cl_device_info;
typedef cl_uint cl_program_build_info;
typedef intptr_t cl_context_properties;
typedef struct cn_cl_platform *cl_platform_id;
typedef struct cn_cl_device *cl_device_id;
typedef struct cn_cl_context *cl_context;
typedef struct cn_cl_queue *cl_command_queue;
typedef struct cn_cl_mem *cl_mem;
typedef struct cn_cl_program *cl_program;
typedef struct cn_cl_kernel *cl_kernel;
typedef struct cn_cl_event *cl_event;

#define CL_SUCCESS 0
#define CL_DEVICE_NOT_FOUND (-1)
#define CL_BUILD_PROGRAM_FAILURE (-11)
#define CL_PLATFORM_NOT_FOUND_KHR (-1001)
#define CL_TRUE 1u
#define CL_FALSE 0u
#define CL_PLATFORM_VERSION 0x0901u
#define CL_PLATFORM_NAME 0x0902u
#define CL_DEVICE_TYPE_CPU ((cl_device_type)1 << 1)
#define CL_DEVICE_TYPE_GPU ((cl_device_type)1 << 2)
#define CL_DEVICE_TYPE_ACCELERATOR ((cl_device_type)1 << 3)
#define CL_DEVICE_TYPE_ALL ((cl_device_type)0xFFFFFFFFu)
#define CL_DEVICE_TYPE 0x1000u
#define CL_DEVICE_MAX_COMPUTE_UNITS 0x1002u
#define CL_DEVICE_MAX_MEM_ALLOC_SIZE 0x1010u
#define CL_DEVICE_SINGLE_FP_CONFIG 0x101Bu
#define CL_DEVICE_GLOBAL_MEM_SIZE 0x101Fu
#define CL_DEVICE_AVAILABLE 0x1027u
#define CL_DEVICE_COMPILER_AVAILABLE 0x1028u
#define CL_DEVICE_NAME 0x102Bu
#define CL_DEVICE_VERSION 0x102Fu
#define CL_DEVICE_EXTENSIONS 0x1030u
#define CL_DEVICE_DOUBLE_FP_CONFIG 0x1032u
#define CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT ((cl_device_fp_config)1 << 7)
#define CL_MEM_WRITE_ONLY ((cl_mem_flags)1 << 1)
#define CL_MEM_READ_ONLY ((cl_mem_flags)1 << 2)
#define CL_PROGRAM_BUILD_LOG 0x1183u

/* X(return type, name, parameter list): every function src/opencl.c uses. */
#define CN_CL_FUNCTIONS(X)                                                                          \
    X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))                             \
    X(cl_int, clGetPlatformInfo, (cl_platform_id, cl_platform_info, size_t, void *, size_t *))      \
    X(cl_int, clGetDeviceIDs, (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *)) \
    X(cl_int, clGetDeviceInfo, (cl_device_id, cl_device_info, size_t, void *, size_t *))            \
    X(cl_context, clCreateContext,                                                                  \
      (const cl_context_properties *, cl_uint, const cl_device_id *,                                \
       void(CN_CLAPI *)(const char *, const void *, size_t, void *), void *, cl_int *))             \
    X(cl_int, clReleaseContext, (cl_context))                                                       \
    X(cl_command_queue, clCreateCommandQueue, (cl_context, cl_device_id, cl_command_queue_properties, cl_int *)) \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue))                                            \
    X(cl_program, clCreateProgramWithSource, (cl_context, cl_uint, const char **, const size_t *, cl_int *)) \
    X(cl_int, clBuildProgram,                                                                       \
      (cl_program, cl_uint, const cl_device_id *, const char *, void(CN_CLAPI *)(cl_program, void *), void *)) \
    X(cl_int, clGetProgramBuildInfo, (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *)) \
    X(cl_int, clReleaseProgram, (cl_program))                                                       \
    X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))                              \
    X(cl_int, clReleaseKernel, (cl_kernel))                                                         \
    X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))                           \
    X(cl_mem, clCreateBuffer, (cl_context, cl_mem_flags, size_t, void *, cl_int *))                 \
    X(cl_int, clReleaseMemObject, (cl_mem))                                                         \
    X(cl_int, clEnqueueWriteBuffer,                                                                 \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueReadBuffer,                                                                  \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueNDRangeKernel,                                                               \
      (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, \
       const cl_event *, cl_event *))                                                               \
    X(cl_int, clFinish, (cl_command_queue))

#endif
