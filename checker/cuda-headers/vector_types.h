// tensorplace's CUDA headers: the vector types (float2, int4, ...), dim3
// and the make_* functions, declarations only (see cuda_runtime.h).
#pragma once

struct char1 { char x; };
__host__ __device__ inline char1 make_char1(char x) { return {x}; }
struct char2 { char x; char y; };
__host__ __device__ inline char2 make_char2(char x, char y) { return {x, y}; }
struct char3 { char x; char y; char z; };
__host__ __device__ inline char3 make_char3(char x, char y, char z) { return {x, y, z}; }
struct char4 { char x; char y; char z; char w; };
__host__ __device__ inline char4 make_char4(char x, char y, char z, char w) { return {x, y, z, w}; }
struct uchar1 { unsigned char x; };
__host__ __device__ inline uchar1 make_uchar1(unsigned char x) { return {x}; }
struct uchar2 { unsigned char x; unsigned char y; };
__host__ __device__ inline uchar2 make_uchar2(unsigned char x, unsigned char y) { return {x, y}; }
struct uchar3 { unsigned char x; unsigned char y; unsigned char z; };
__host__ __device__ inline uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { return {x, y, z}; }
struct uchar4 { unsigned char x; unsigned char y; unsigned char z; unsigned char w; };
__host__ __device__ inline uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { return {x, y, z, w}; }
struct short1 { short x; };
__host__ __device__ inline short1 make_short1(short x) { return {x}; }
struct short2 { short x; short y; };
__host__ __device__ inline short2 make_short2(short x, short y) { return {x, y}; }
struct short3 { short x; short y; short z; };
__host__ __device__ inline short3 make_short3(short x, short y, short z) { return {x, y, z}; }
struct short4 { short x; short y; short z; short w; };
__host__ __device__ inline short4 make_short4(short x, short y, short z, short w) { return {x, y, z, w}; }
struct ushort1 { unsigned short x; };
__host__ __device__ inline ushort1 make_ushort1(unsigned short x) { return {x}; }
struct ushort2 { unsigned short x; unsigned short y; };
__host__ __device__ inline ushort2 make_ushort2(unsigned short x, unsigned short y) { return {x, y}; }
struct ushort3 { unsigned short x; unsigned short y; unsigned short z; };
__host__ __device__ inline ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { return {x, y, z}; }
struct ushort4 { unsigned short x; unsigned short y; unsigned short z; unsigned short w; };
__host__ __device__ inline ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { return {x, y, z, w}; }
struct int1 { int x; };
__host__ __device__ inline int1 make_int1(int x) { return {x}; }
struct int2 { int x; int y; };
__host__ __device__ inline int2 make_int2(int x, int y) { return {x, y}; }
struct int3 { int x; int y; int z; };
__host__ __device__ inline int3 make_int3(int x, int y, int z) { return {x, y, z}; }
struct int4 { int x; int y; int z; int w; };
__host__ __device__ inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
struct uint1 { unsigned int x; };
__host__ __device__ inline uint1 make_uint1(unsigned int x) { return {x}; }
struct uint2 { unsigned int x; unsigned int y; };
__host__ __device__ inline uint2 make_uint2(unsigned int x, unsigned int y) { return {x, y}; }
struct uint3 { unsigned int x; unsigned int y; unsigned int z; };
__host__ __device__ inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return {x, y, z}; }
struct uint4 { unsigned int x; unsigned int y; unsigned int z; unsigned int w; };
__host__ __device__ inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { return {x, y, z, w}; }
struct long1 { long x; };
__host__ __device__ inline long1 make_long1(long x) { return {x}; }
struct long2 { long x; long y; };
__host__ __device__ inline long2 make_long2(long x, long y) { return {x, y}; }
struct long3 { long x; long y; long z; };
__host__ __device__ inline long3 make_long3(long x, long y, long z) { return {x, y, z}; }
struct long4 { long x; long y; long z; long w; };
__host__ __device__ inline long4 make_long4(long x, long y, long z, long w) { return {x, y, z, w}; }
struct ulong1 { unsigned long x; };
__host__ __device__ inline ulong1 make_ulong1(unsigned long x) { return {x}; }
struct ulong2 { unsigned long x; unsigned long y; };
__host__ __device__ inline ulong2 make_ulong2(unsigned long x, unsigned long y) { return {x, y}; }
struct ulong3 { unsigned long x; unsigned long y; unsigned long z; };
__host__ __device__ inline ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { return {x, y, z}; }
struct ulong4 { unsigned long x; unsigned long y; unsigned long z; unsigned long w; };
__host__ __device__ inline ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { return {x, y, z, w}; }
struct longlong1 { long long x; };
__host__ __device__ inline longlong1 make_longlong1(long long x) { return {x}; }
struct longlong2 { long long x; long long y; };
__host__ __device__ inline longlong2 make_longlong2(long long x, long long y) { return {x, y}; }
struct longlong3 { long long x; long long y; long long z; };
__host__ __device__ inline longlong3 make_longlong3(long long x, long long y, long long z) { return {x, y, z}; }
struct longlong4 { long long x; long long y; long long z; long long w; };
__host__ __device__ inline longlong4 make_longlong4(long long x, long long y, long long z, long long w) { return {x, y, z, w}; }
struct ulonglong1 { unsigned long long x; };
__host__ __device__ inline ulonglong1 make_ulonglong1(unsigned long long x) { return {x}; }
struct ulonglong2 { unsigned long long x; unsigned long long y; };
__host__ __device__ inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return {x, y}; }
struct ulonglong3 { unsigned long long x; unsigned long long y; unsigned long long z; };
__host__ __device__ inline ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { return {x, y, z}; }
struct ulonglong4 { unsigned long long x; unsigned long long y; unsigned long long z; unsigned long long w; };
__host__ __device__ inline ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { return {x, y, z, w}; }
struct float1 { float x; };
__host__ __device__ inline float1 make_float1(float x) { return {x}; }
struct float2 { float x; float y; };
__host__ __device__ inline float2 make_float2(float x, float y) { return {x, y}; }
struct float3 { float x; float y; float z; };
__host__ __device__ inline float3 make_float3(float x, float y, float z) { return {x, y, z}; }
struct float4 { float x; float y; float z; float w; };
__host__ __device__ inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
struct double1 { double x; };
__host__ __device__ inline double1 make_double1(double x) { return {x}; }
struct double2 { double x; double y; };
__host__ __device__ inline double2 make_double2(double x, double y) { return {x, y}; }
struct double3 { double x; double y; double z; };
__host__ __device__ inline double3 make_double3(double x, double y, double z) { return {x, y, z}; }
struct double4 { double x; double y; double z; double w; };
__host__ __device__ inline double4 make_double4(double x, double y, double z, double w) { return {x, y, z, w}; }

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)
      : x(x), y(y), z(z) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

