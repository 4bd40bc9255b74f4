// HDF5 (serial). Many HDF5 "constants" are macros that expand to function calls
// or globals Swift cannot import (H5T_NATIVE_FLOAT calls H5open()); each one
// SEKit needs becomes a static inline function here.
#include <hdf5.h>

static inline hid_t sekit_H5P_DEFAULT(void) { return H5P_DEFAULT; }
static inline hid_t sekit_H5S_ALL(void) { return H5S_ALL; }
static inline unsigned sekit_H5F_ACC_TRUNC(void) { return H5F_ACC_TRUNC; }
static inline unsigned sekit_H5F_ACC_EXCL(void) { return H5F_ACC_EXCL; }
static inline unsigned sekit_H5F_ACC_RDONLY(void) { return H5F_ACC_RDONLY; }
static inline unsigned sekit_H5F_ACC_RDWR(void) { return H5F_ACC_RDWR; }
static inline hid_t sekit_H5T_NATIVE_FLOAT(void) { return H5T_NATIVE_FLOAT; }
static inline hid_t sekit_H5T_NATIVE_DOUBLE(void) { return H5T_NATIVE_DOUBLE; }
static inline hid_t sekit_H5T_NATIVE_INT64(void) { return H5T_NATIVE_INT64; }
static inline hid_t sekit_H5T_NATIVE_INT32(void) { return H5T_NATIVE_INT32; }
static inline hid_t sekit_H5T_C_S1(void) { return H5T_C_S1; }
static inline hid_t sekit_H5P_DATASET_CREATE(void) { return H5P_DATASET_CREATE; }
static inline hid_t sekit_H5P_FILE_ACCESS(void) { return H5P_FILE_ACCESS; }
static inline hsize_t sekit_H5S_UNLIMITED(void) { return H5S_UNLIMITED; }
static inline hid_t sekit_H5E_DEFAULT(void) { return H5E_DEFAULT; }
static inline hid_t sekit_H5P_DATASET_ACCESS(void) { return H5P_DATASET_ACCESS; }
static inline hid_t sekit_H5T_IEEE_F32LE(void) { return H5T_IEEE_F32LE; }
static inline hid_t sekit_H5T_IEEE_F64LE(void) { return H5T_IEEE_F64LE; }
static inline hid_t sekit_H5T_STD_I64LE(void) { return H5T_STD_I64LE; }
// H5T_VARIABLE is ((size_t)-1): the size of a variable-length string type.
static inline size_t sekit_H5T_VARIABLE(void) { return H5T_VARIABLE; }
static inline hid_t sekit_H5P_GROUP_CREATE(void) { return H5P_GROUP_CREATE; }
