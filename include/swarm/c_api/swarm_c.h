/* swarm's C API: buffers, tensor views and kernels behind opaque handles, so that C, Python
 * (ctypes), Elixir NIFs and other languages can drive swarm without C++.
 *
 *   swarm_context ctx;
 *   swarm_context_desc desc = {0};              // zero means default: no budget, one thread
 *   if (swarm_context_create(&desc, &ctx) != SWARM_OK) puts(swarm_last_error());
 *   swarm_buffer positions;
 *   swarm_buffer_create_vec4(ctx, 1000, &positions);
 *   swarm_tensor view;
 *   swarm_buffer_tensor(positions, &view);      // f32[1000][4], strides [1, 1008]
 *   ...
 *   swarm_tensor_destroy(view);
 *   swarm_buffer_release(positions);
 *   swarm_context_destroy(ctx);
 *
 * Conventions:
 * - Every call that can fail returns a swarm_status; on failure swarm_last_error() gives the
 *   message (what was wrong, where, expected versus given) and nothing the caller passed in is
 *   changed: out-parameters keep their values and no buffer is written. Null handles and null
 *   out-pointers are reported as SWARM_INVALID_ARGUMENT, never dereferenced.
 * - Ownership is shared: a buffer holds its context's memory accountant, a tensor view holds its
 *   buffer, and an exported DLPack tensor holds the view's buffer. Releasing a handle only drops
 *   its reference, so handles may be released in any order and nothing dangles.
 * - Handles may be used from several threads; the caller must not write one buffer from two
 *   threads at once. Kernel calls that take a context serialise on it. A thread that may call
 *   with a context after another thread destroys its reference takes its own first
 *   (swarm_context_retain); a call in flight holds the context's state until it returns.
 * - No C++ exception crosses this boundary: an allocation failure is SWARM_OUT_OF_MEMORY.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Errors
 */

/* Mirrors swarm::ErrorCode. */
typedef enum swarm_status {
  SWARM_OK = 0,
  SWARM_INVALID_ARGUMENT = 1, /* a value, handle or shape the call cannot accept */
  SWARM_OVER_BUDGET = 2,      /* the context's memory budget would be exceeded */
  SWARM_OUT_OF_MEMORY = 3,    /* the operating system refused an allocation */
  SWARM_UNAVAILABLE = 4,      /* e.g. threads the system cannot start, or an internal failure */
} swarm_status;

/* The message of the most recent failed call on the calling thread ("" if none failed yet).
 * Successful calls leave it unchanged. Valid until the next failing call on this thread. */
const char* swarm_last_error(void);

/* "ok", "invalid argument", ...; NULL for a value outside the enum. */
const char* swarm_status_name(swarm_status status);

/* ---------------------------------------------------------------------------------------------
 * Element types, in the order and with the names of swarm::DType.
 */
typedef enum swarm_dtype {
  SWARM_F32 = 0,
  SWARM_F64 = 1,
  SWARM_S8 = 2,
  SWARM_S16 = 3,
  SWARM_S32 = 4,
  SWARM_S64 = 5,
  SWARM_U8 = 6,
  SWARM_U16 = 7,
  SWARM_U32 = 8,
  SWARM_U64 = 9,
  SWARM_C64 = 10, /* complex float: two f32, real first */
  SWARM_C128 = 11,
  SWARM_F16 = 12,  /* IEEE binary16 */
  SWARM_BF16 = 13, /* bfloat16: the upper 16 bits of an f32 */
  SWARM_BOOL = 14, /* one byte; not zero is true */
} swarm_dtype;

/* Bytes per element; 0 for a value outside the enum. */
size_t swarm_dtype_size(swarm_dtype dtype);
/* "f32", "c128", ...; NULL for a value outside the enum. */
const char* swarm_dtype_name(swarm_dtype dtype);

/* ---------------------------------------------------------------------------------------------
 * Context: a memory accountant (with an optional budget) and a thread pool.
 */
typedef struct swarm_context_impl* swarm_context;

typedef struct swarm_context_desc {
  size_t budget_bytes; /* 0: no budget */
  size_t threads;      /* threads kernels run on, counting the caller; 0: 1; at most 1024 */
} swarm_context_desc;

/* `desc` may be NULL (all defaults). The new handle holds one reference, the caller's. Fails with
 * SWARM_UNAVAILABLE, naming the threads requested and the system's reason, when the system
 * cannot start that many threads (its thread or address-space limit); nothing is left running.
 */
swarm_status swarm_context_create(const swarm_context_desc* desc, swarm_context* out);
/* Adds a reference to the handle, to be dropped with its own swarm_context_destroy.
 *
 * The rule for contexts used from several threads: a handle is valid while its caller holds a
 * reference, and a call in flight needs a valid handle when it starts. So a thread that may
 * still call with the context after another thread's swarm_context_destroy takes its own
 * reference first (swarm_context_retain before handing the handle over, destroy when done).
 * Once a call has started it holds the context's state (threads, accountant) itself until it
 * returns, so releasing other references meanwhile is safe. Objects made in a context (buffers,
 * tensors, prepared expressions, particle systems, robot batches) already keep its state alive
 * and need no reference on the handle. */
swarm_status swarm_context_retain(swarm_context context);
/* Drops the caller's reference (NULL is ignored); the handle is freed with the last. Objects made
 * in the context keep its accountant and threads alive; the threads stop when the last of them
 * and of the handle's references is gone. */
void swarm_context_destroy(swarm_context context);

/* Bytes currently allocated through the context (buffers, owned tensors, kernel scratch). */
swarm_status swarm_context_bytes_in_use(swarm_context context, size_t* bytes);

/* The memory table: bytes in use, peak and allocations per category, budget, process RSS.
 *
 * Every call that returns text uses this size-query pattern: *length receives the text's length
 * without the terminating NUL (length may be NULL when text is given). If `text` is NULL only the
 * length is returned; otherwise `capacity` must exceed the length, and the text and its NUL are
 * copied (a too small capacity fails and leaves `text` unchanged). */
swarm_status swarm_context_memory_report(swarm_context context, char* text, size_t capacity,
                                         size_t* length);

/* The SIMD target kernels run on now: "avx512", "avx2", "sse4", "ssse3" on x86, "sve2_128",
 * "sve_256", "sve2", "sve", "neon" on aarch64, or "scalar" (swarm/core/simd.h). The pointer
 * stays valid until the next call of this function on the same thread. */
const char* swarm_simd_target_name(void);

/* ---------------------------------------------------------------------------------------------
 * Buffers: reference-counted owners of swarm's storage, allocated zeroed through a context.
 */
typedef struct swarm_buffer_impl* swarm_buffer;

typedef enum swarm_buffer_kind {
  SWARM_BUFFER_VEC4 = 0,      /* N f32x4 as SoA lanes: tensor f32[N][4], strides [1, padded N] */
  SWARM_BUFFER_F32_ARRAY = 1, /* f32[N] */
  SWARM_BUFFER_U8_ARRAY = 2,  /* u8[N] */
  SWARM_BUFFER_IMAGE_F32 = 3, /* f32[H][W], strides [row_stride, 1] */
  SWARM_BUFFER_IMAGE_U8 = 4,  /* u8[H][W] */
  SWARM_BUFFER_IMAGE_BATCH_F32 = 5, /* f32[B][H][W], strides [image_stride, row_stride, 1] */
  SWARM_BUFFER_IMAGE_BATCH_U8 = 6,
  SWARM_BUFFER_TENSOR = 7, /* any dtype and shape, contiguous C order */
} swarm_buffer_kind;

/* `count` zero vectors / scalars (count may be 0). */
swarm_status swarm_buffer_create_vec4(swarm_context context, size_t count, swarm_buffer* out);
swarm_status swarm_buffer_create_f32_array(swarm_context context, size_t count, swarm_buffer* out);
swarm_status swarm_buffer_create_u8_array(swarm_context context, size_t count, swarm_buffer* out);
/* A zero image; dtype SWARM_F32 or SWARM_U8, width and height >= 1. */
swarm_status swarm_buffer_create_image(swarm_context context, swarm_dtype dtype, size_t width,
                                       size_t height, swarm_buffer* out);
/* `count` >= 1 zero frames of width x height in one allocation; dtype SWARM_F32 or SWARM_U8. */
swarm_status swarm_buffer_create_image_batch(swarm_context context, swarm_dtype dtype, size_t count,
                                             size_t width, size_t height, swarm_buffer* out);
/* A zero tensor of `rank` <= 8 extents >= 0 (shape may be NULL when rank is 0). */
swarm_status swarm_buffer_create_tensor(swarm_context context, swarm_dtype dtype,
                                        const int64_t* shape, size_t rank, swarm_buffer* out);

/* A buffer starts with one reference; the last release frees it (NULL is ignored). */
swarm_status swarm_buffer_retain(swarm_buffer buffer);
void swarm_buffer_release(swarm_buffer buffer);
swarm_status swarm_buffer_kind_get(swarm_buffer buffer, swarm_buffer_kind* out);

/* ---------------------------------------------------------------------------------------------
 * Tensor views: a swarm::TensorView plus a reference on what it views. Each call that makes a
 * view returns a new handle the caller destroys; views are immutable.
 */
typedef struct swarm_tensor_impl* swarm_tensor;

enum { SWARM_MAX_RANK = 8 };

typedef struct swarm_tensor_info {
  void* data; /* element [0, ..., 0]; strides may be negative, so not the lowest address */
  swarm_dtype dtype;
  size_t rank;
  int64_t shape[SWARM_MAX_RANK];   /* entries past rank are 0 */
  int64_t strides[SWARM_MAX_RANK]; /* in elements, not bytes; may be 0 or negative */
  bool read_only;
} swarm_tensor_info;

/* A writable view of the whole buffer (layouts under swarm_buffer_kind). */
swarm_status swarm_buffer_tensor(swarm_buffer buffer, swarm_tensor* out);
/* NULL is ignored. */
void swarm_tensor_destroy(swarm_tensor tensor);
swarm_status swarm_tensor_info_get(swarm_tensor tensor, swarm_tensor_info* out);

/* One axis of a slice with Python's semantics (negative bounds count from the end, out-of-range
 * bounds clamp). Zero means default, so a zeroed slice is the whole axis: has_start/has_stop
 * false means the bound is omitted (`a[::-1]` starts at the last element), step 0 means 1. */
typedef struct swarm_slice {
  int64_t start;
  int64_t stop;
  int64_t step;
  bool has_start;
  bool has_stop;
} swarm_slice;

/* One slice per leading axis (count <= rank; later axes are kept whole). */
swarm_status swarm_tensor_slice(swarm_tensor tensor, const swarm_slice* slices, size_t count,
                                swarm_tensor* out);
/* Axis i of the result is axis axes[i]; `axes` is a permutation of 0..rank-1. */
swarm_status swarm_tensor_permute(swarm_tensor tensor, const size_t* axes, size_t count,
                                  swarm_tensor* out);
/* Reverses the axes (numpy's .T). */
swarm_status swarm_tensor_transpose(swarm_tensor tensor, swarm_tensor* out);
/* Same elements in C order under a new shape (one entry may be -1: inferred). Fails where the
 * strides cannot express it without a copy; copy first then. */
swarm_status swarm_tensor_reshape(swarm_tensor tensor, const int64_t* shape, size_t rank,
                                  swarm_tensor* out);
swarm_status swarm_tensor_read_only(swarm_tensor tensor, swarm_tensor* out);

/* Copies src into dst element by element, casting when dtypes differ (swarm/tensor/
 * tensor_copy.h gives the cast rules). Equal shapes, dst writable, no partial overlap. */
swarm_status swarm_tensor_copy_into(swarm_tensor src, swarm_tensor dst);
/* A new SWARM_BUFFER_TENSOR buffer in `context` with src's elements, contiguous, as `dtype`
 * (swarm_tensor_copy keeps src's dtype). */
swarm_status swarm_tensor_copy(swarm_context context, swarm_tensor src, swarm_buffer* out);
swarm_status swarm_tensor_cast(swarm_context context, swarm_tensor src, swarm_dtype dtype,
                               swarm_buffer* out);

/* Nx-style text ("f32[1000][4]" then the values, the middle elided past `limit` elements).
 * Zero means default: limit 1000, edge_items 3. Size-query pattern as
 * swarm_context_memory_report. */
typedef struct swarm_format_desc {
  size_t limit;
  size_t edge_items;
} swarm_format_desc;
/* `desc` may be NULL. */
swarm_status swarm_tensor_format(swarm_tensor tensor, const swarm_format_desc* desc, char* text,
                                 size_t capacity, size_t* length);

/* ---------------------------------------------------------------------------------------------
 * Interchange: .npy files and DLPack (0.6, CPU).
 */

/* Writes the view as a .npy file (little-endian, C order; format 1.0, or 2.0 when the header
 * needs it), byte for byte what np.save writes. */
swarm_status swarm_tensor_save_npy(swarm_tensor tensor, const char* path);
/* Reads a .npy file (format 1.0, 2.0 or 3.0, little-endian, C or Fortran order) into a new
 * SWARM_BUFFER_TENSOR buffer. A malformed or truncated file fails with the reason. */
swarm_status swarm_load_npy(swarm_context context, const char* path, swarm_buffer* out);

struct DLManagedTensor; /* <dlpack/dlpack.h> */

/* Exports the view without copying. The managed tensor holds a reference on the view's buffer,
 * so it stays valid after every swarm handle is released; its owner calls its deleter once. */
swarm_status swarm_tensor_to_dlpack(swarm_tensor tensor, struct DLManagedTensor** out);
/* Imports a CPU DLPack tensor as a view (validating device, dtype, shape and strides). On
 * success the returned tensor owns `managed`: its deleter runs when that tensor and every view
 * or export made from it are gone. On failure the caller still owns `managed`. */
swarm_status swarm_tensor_from_dlpack(struct DLManagedTensor* managed, bool read_only,
                                      swarm_tensor* out);
/* Calls managed->deleter(managed) if both are non-null: for bindings (ctypes) that cannot call
 * a function pointer field conveniently. */
void swarm_dlpack_delete(struct DLManagedTensor* managed);

/* ---------------------------------------------------------------------------------------------
 * Tensor arithmetic on f32 views (deterministic: the same bits on every SIMD target).
 */
typedef enum swarm_binary_op {
  SWARM_OP_ADD = 0,
  SWARM_OP_SUB = 1,
  SWARM_OP_MUL = 2,
  SWARM_OP_DIV = 3,
  SWARM_OP_MIN = 4,
  SWARM_OP_MAX = 5,
  /* Comparisons and logic give 1.0 (true) or 0.0; ordered (false with NaN) except NOT_EQUAL;
   * AND / OR take any value but +-0 (NaN included) as true. */
  SWARM_OP_LESS = 6,
  SWARM_OP_LESS_EQUAL = 7,
  SWARM_OP_GREATER = 8,
  SWARM_OP_GREATER_EQUAL = 9,
  SWARM_OP_EQUAL = 10,
  SWARM_OP_NOT_EQUAL = 11,
  SWARM_OP_AND = 12,
  SWARM_OP_OR = 13,
} swarm_binary_op;

/* out = a op b with numpy broadcasting of a and b to out's shape; out writable. */
swarm_status swarm_elementwise(swarm_binary_op op, swarm_tensor a, swarm_tensor b,
                               swarm_tensor out);

/* Fused expressions written as text, numexpr-style (swarm/tensor/tensor_expression_text.h):
 * "where((a > b) & (c != 0), a - b, 2 * c)" with + - * /, comparisons, & | ~, unary minus,
 * parentheses, numbers, minimum / maximum (also min, max), abs, sqrt, where and casts named by
 * dtype (f16(x), u8(x), ...) over the tensors names[i] = tensors[i] (i < count) of any real
 * dtype, broadcast like numpy, into out of any real dtype. Values are computed as f32. The
 * expression is parsed once and run one tile at a time on the context's threads: no full-size
 * temporary, the same bits as the operations one by one (on any thread count). Errors name the
 * token and position. The names must differ: a name given twice is an error naming it. */
swarm_status swarm_evaluate(swarm_context context, const char* expression, const char* const* names,
                            const swarm_tensor* tensors, size_t count, swarm_tensor out);
/* An expression checked once, for a loop that evaluates it again and again (a simulation step,
 * a training batch): swarm_expression_prepare parses it and makes every check of swarm_evaluate
 * over these tensors and out; swarm_expression_run evaluates it on their current values on the
 * context's threads, with no parsing, checking or allocation. The handle keeps the context and
 * the tensors' memory alive (the tensor handles themselves may be destroyed); their layouts are
 * fixed. */
typedef struct swarm_expression_impl* swarm_expression;
swarm_status swarm_expression_prepare(swarm_context context, const char* expression,
                                      const char* const* names, const swarm_tensor* tensors,
                                      size_t count, swarm_tensor out, swarm_expression* prepared);
swarm_status swarm_expression_run(swarm_expression prepared);
void swarm_expression_destroy(swarm_expression prepared);
/* The sum of the expression's elements in C order of the broadcast shape (as
 * swarm_tensor_reduce_all's sum of the evaluated result), without storing them. */
swarm_status swarm_evaluate_sum(const char* expression, const char* const* names,
                                const swarm_tensor* tensors, size_t count, double* out);

typedef enum swarm_reduce_op {
  SWARM_REDUCE_SUM = 0,
  SWARM_REDUCE_MEAN = 1,
  SWARM_REDUCE_MIN = 2,
  SWARM_REDUCE_MAX = 3,
} swarm_reduce_op;

/* Reduces every element: sum and mean accumulate in double; min and max are the f32 value. */
swarm_status swarm_tensor_reduce_all(swarm_reduce_op op, swarm_tensor tensor, double* out);
/* Reduces along `axis` into `out`, whose shape is the tensor's without that axis. */
swarm_status swarm_tensor_reduce(swarm_reduce_op op, swarm_tensor tensor, size_t axis,
                                 swarm_tensor out);
/* A reduction of a text expression's elements (as swarm_evaluate's), fused: sum and mean in C
 * order of the broadcast shape (swarm_tensor_reduce_all's bits on the evaluated result), min and
 * max exact; nothing is stored. Mean, min and max of no elements are errors. */
swarm_status swarm_evaluate_reduce(swarm_reduce_op op, const char* expression,
                                   const char* const* names, const swarm_tensor* tensors,
                                   size_t count, double* out);

/* ---------------------------------------------------------------------------------------------
 * Kernels
 */

/* Semi-implicit Euler with gravity and linear drag: v += (g - k v) dt; p += v dt, on lanes x, y,
 * z (w untouched). Every field is used as given (no defaults): dt_seconds finite and > 0,
 * drag_per_second finite and >= 0. */
typedef struct swarm_euler_params {
  float gravity[3]; /* m/s^2 */
  float drag_per_second;
  float dt_seconds;
} swarm_euler_params;
/* positions and velocities: distinct SWARM_BUFFER_VEC4 buffers of one size. */
swarm_status swarm_integrate_euler(swarm_buffer positions, swarm_buffer velocities,
                                   const swarm_euler_params* params);

/* cv::GaussianBlur(src, dst, {ksize, ksize}, sigma) with border reflect-101, on the context's
 * threads: src and dst are two images, or two image batches, of the same dtype (f32 or u8) and
 * size; ksize odd >= 1; sigma > 0 and finite. */
swarm_status swarm_gaussian_blur(swarm_context context, swarm_buffer src, swarm_buffer dst,
                                 size_t ksize, double sigma);

/* Every point's neighbours within `radius` (swarm/particles/neighbor_grid.h), on the context's
 * threads. `points` is an f32 tensor [N, 3], or [N, 4] whose last column is ignored (a vec4
 * buffer's view), with any strides. Returns two new tensor buffers: `offsets`, s64 [N + 1], and
 * `indices`, s32 [offsets[N]]; row i, indices[offsets[i] .. offsets[i + 1]), lists every j != i
 * with |p_i - p_j| <= radius (float32: dx*dx + dy*dy + dz*dz <= radius*radius), ascending. The
 * same on every SIMD target and thread count. Errors: radius not finite or <= 0, a NaN or infinite
 * coordinate (the message names the first point), points spread over more than 2^30 radii along
 * an axis, more than 2^31 - 64 points, the memory budget (the grid, its lists and the outputs are
 * all accounted; about 170 bytes per point with 30 neighbours). */
swarm_status swarm_neighbors(swarm_context context, swarm_tensor points, float radius,
                             swarm_buffer* offsets, swarm_buffer* indices);

/* Interacting particle systems (swarm/particles/particle_system.h with the presets of
 * swarm/particles/interaction_presets.h): a dam break, a sand dump or a flock in a box, stepped
 * on the context's threads, their state shown as zero-copy tensors that stay valid for the
 * system's life (each step writes into the same buffers; storage is kept in the neighbour grid's
 * cell order, so a slot's particle changes: SWARM_PARTICLE_IDS maps slots to the particles'
 * indices at creation). The same bits on every SIMD target, thread count and architecture.
 *
 *   swarm_particle_system_desc desc = {0};
 *   desc.interaction = SWARM_INTERACTION_FLUID;   // box zero: the demo's 20 m box
 *   swarm_particle_system fluid;
 *   swarm_particle_system_create(ctx, 20000, &desc, &fluid);
 *   swarm_tensor positions;
 *   swarm_particle_system_tensor(fluid, SWARM_PARTICLE_POSITIONS, &positions);  // f32 [N][4]
 *   for (int frame = 0; frame < 600; ++frame) swarm_particle_system_step(fluid, 1.0f / 60.0f);
 */
typedef struct swarm_particle_system_impl* swarm_particle_system;

typedef enum swarm_interaction {
  SWARM_INTERACTION_GRANULAR = 1, /* soft spheres with friction: a block of grains collapsing */
  SWARM_INTERACTION_FLUID = 2,    /* Position Based Fluids: a dam break */
  SWARM_INTERACTION_FLOCK = 3,    /* boids all through the box */
} swarm_interaction;

typedef struct swarm_particle_system_desc {
  swarm_interaction interaction;
  float box_min[3]; /* the box the particles stay in; both zero: [-10, 10] x [0, 20] x [-10, 10] */
  float box_max[3];
  uint64_t seed; /* random placement (granular jitter, flock positions and velocities) */
} swarm_particle_system_desc;

/* count >= 1 particles. Errors: an unknown interaction, a box with min >= max or non-finite, the
 * memory budget (about 100-160 bytes per particle, grid included). */
swarm_status swarm_particle_system_create(swarm_context context, size_t count,
                                          const swarm_particle_system_desc* desc,
                                          swarm_particle_system* out);
/* NULL is ignored. Tensors of the system keep its memory alive. */
void swarm_particle_system_destroy(swarm_particle_system system);

/* One step of dt seconds (finite, > 0), its substeps included. A NaN or infinite position the
 * caller wrote is an error naming the slot, and nothing moves. */
swarm_status swarm_particle_system_step(swarm_particle_system system, float dt);

typedef enum swarm_particle_array {
  SWARM_PARTICLE_POSITIONS = 0,  /* f32 [N][4]: x y z, w carried along (writable) */
  SWARM_PARTICLE_VELOCITIES = 1, /* f32 [N][4] (writable) */
  SWARM_PARTICLE_IDS = 2,        /* u32 [N]: each slot's particle index at creation (read-only) */
} swarm_particle_array;
swarm_status swarm_particle_system_tensor(swarm_particle_system system, swarm_particle_array array,
                                          swarm_tensor* out);

typedef struct swarm_interaction_stats {
  double neighbor_seconds;    /* the last substep's grid build and sort into cell order */
  double interaction_seconds; /* the last substep's passes and integration */
  double average_neighbors;   /* particles within the interaction radius, per particle */
  uint64_t steps;             /* steps taken */
  uint64_t state_hash;        /* XXH3 of the state (positions, velocities, ages, lifetimes) */
} swarm_interaction_stats;
swarm_status swarm_particle_system_stats(swarm_particle_system system,
                                         swarm_interaction_stats* out);

/* ---------------------------------------------------------------------------------------------
 * Robots: models read from URDF or MJCF, and batches of R robots of one model stepped in lockstep
 * (swarm/robots/robot_batch.h), their state shown as zero-copy tensor views. The loop of a
 * reinforcement-learning user:
 *
 *   swarm_robot_model model;
 *   swarm_robot_model_load_urdf("panda.urdf", NULL, &model);
 *   swarm_robot_batch_desc desc = {0};
 *   desc.robots = 4096;
 *   desc.torque = true;                        // rigid-body dynamics from the <inertial>s
 *   swarm_robot_batch batch;
 *   swarm_robot_batch_create(ctx, model, &desc, &batch);
 *   swarm_tensor q, tau;                       // f32[4096][dof], written in place by steps
 *   swarm_robot_batch_tensor(batch, SWARM_ROBOT_Q, &q);
 *   swarm_robot_batch_tensor(batch, SWARM_ROBOT_TORQUE, &tau);
 *   for (...) {                                // policy(q) -> tau, then one step
 *     swarm_robot_batch_torque_step(batch, 0.002f, SWARM_TORQUE_NONE);
 *   }
 *
 * Views hold a reference on the batch, so they stay valid after swarm_robot_batch_destroy; a
 * batch holds its context's accountant and threads and a copy of its model.
 */
typedef struct swarm_robot_model_impl* swarm_robot_model;
typedef struct swarm_robot_batch_impl* swarm_robot_batch;

/* What the URDF loader does with the links' <collision> elements. */
typedef enum swarm_urdf_collisions {
  SWARM_URDF_COLLISIONS_IGNORE = 0,      /* not read: the model has no collision shapes */
  SWARM_URDF_COLLISIONS_PRIMITIVES = 1,  /* boxes, spheres, cylinders; a mesh is an error */
  SWARM_URDF_COLLISIONS_SKIP_MESHES = 2, /* the same, meshes left out */
} swarm_urdf_collisions;

typedef struct swarm_urdf_desc {
  bool floating_base; /* the root link moves freely: 7 leading q values x y z qw qx qy qz */
  size_t max_bytes;   /* longer URDF text is refused; 0: 8 MiB */
  swarm_urdf_collisions collisions;
} swarm_urdf_desc;

/* Reads and validates a URDF file or text (`desc` may be NULL: fixed base, 8 MiB). Errors name
 * the file, the element and the problem (swarm/robots/robot_model.h lists what is refused). */
swarm_status swarm_robot_model_load_urdf(const char* path, const swarm_urdf_desc* desc,
                                         swarm_robot_model* out);
swarm_status swarm_robot_model_parse_urdf(const char* text, size_t length,
                                          const swarm_urdf_desc* desc, swarm_robot_model* out);
typedef struct swarm_mjcf_desc {
  size_t max_bytes; /* the model's files together; 0: 16 MiB */
} swarm_mjcf_desc;
/* Reads an MJCF (MuJoCo XML) model file and its includes (`desc` may be NULL), as
 * swarm/robots/mjcf_robot.h describes: the robot, its actuators, keyframes, armature, gravity
 * and joint-limit softness, which torque batches of the model use unless their desc overrides
 * them. Errors name the file, line, element and attribute. */
swarm_status swarm_robot_model_load_mjcf(const char* path, const swarm_mjcf_desc* desc,
                                         swarm_robot_model* out);
/* NULL is ignored; batches made from the model keep their own copy. */
void swarm_robot_model_destroy(swarm_robot_model model);

typedef struct swarm_robot_model_info {
  size_t links;                /* link poses per robot, root first */
  size_t dof;                  /* independent joints (mimic joints excluded) */
  size_t q_count;              /* values of q: 7 for a floating base, then dof */
  size_t velocity_count;       /* values of a velocity (qdd): 6 for a floating base, then dof */
  size_t default_end_effector; /* link index */
  bool floating_base;
  size_t actuators; /* an MJCF model's actuators (SWARM_ROBOT_CTRL's columns); 0 for URDF */
  size_t keyframes; /* an MJCF model's keyframes; 0 for URDF */
} swarm_robot_model_info;
swarm_status swarm_robot_model_info_get(swarm_robot_model model, swarm_robot_model_info* out);

typedef enum swarm_robot_name_kind {
  SWARM_ROBOT_NAME_MODEL = 0,    /* the <robot name>; index 0 */
  SWARM_ROBOT_NAME_LINK = 1,     /* index < links */
  SWARM_ROBOT_NAME_Q = 2,        /* index < q_count: "base_x" .. "base_qz", then joint names */
  SWARM_ROBOT_NAME_VELOCITY = 3, /* index < velocity_count: "base_vx" .. "base_wz", joints */
  SWARM_ROBOT_NAME_ACTUATOR = 4, /* index < actuators */
  SWARM_ROBOT_NAME_KEYFRAME = 5, /* index < keyframes */
} swarm_robot_name_kind;
/* A name, with the size-query pattern of swarm_context_memory_report. */
swarm_status swarm_robot_model_name(swarm_robot_model model, swarm_robot_name_kind kind,
                                    size_t index, char* text, size_t capacity, size_t* length);
/* Keyframe `index` of an MJCF model in swarm's order: q (q_count values), velocities
 * (velocity_count: a floating base's in its body frame) and ctrl (actuators); each pointer may be
 * NULL. */
swarm_status swarm_robot_model_keyframe(swarm_robot_model model, size_t index, float* q,
                                        float* velocities, float* ctrl);

/* What swarm_robot_batch_torque_step computes the joint torques with:
 *   NONE             the torques the caller wrote into SWARM_ROBOT_TORQUE (a policy's output)
 *   PD_GRAVITY       g(q) + kp (q_target - q) + kd (qd_target - qd)
 *   COMPUTED_TORQUE  M(q) a + h(q, qd), a = qdd_target + kp (q_target - q) + kd (qd_target - qd)
 *                    (fixed-base robots only)
 *   ACTUATORS        an MJCF model's actuators from SWARM_ROBOT_CTRL (swarm/robots/robot_batch.h
 *                    kActuators)
 * all clamped to the model's effort limits. */
typedef enum swarm_torque_controller {
  SWARM_TORQUE_NONE = 0,
  SWARM_TORQUE_PD_GRAVITY = 1,
  SWARM_TORQUE_COMPUTED_TORQUE = 2,
  SWARM_TORQUE_ACTUATORS = 3,
} swarm_torque_controller;

typedef enum swarm_torque_integrator {
  SWARM_INTEGRATOR_SEMI_IMPLICIT_EULER = 0, /* qd += qdd dt, then q += qd dt */
  SWARM_INTEGRATOR_RK4 = 1,                 /* classical RK4, torques held over the step */
} swarm_torque_integrator;

/* How joint limits and ground contacts push back in torque mode: soft constraints with MuJoCo's
 * parameters (solref = (time_constant, damping_ratio), solimp = (impedance_min, impedance_max,
 * width, midpoint, power)) and MuJoCo's force law (swarm/kernels/robots/soft_constraint.h). At
 * rest a constraint of impedance d carries a load f at the depth r where
 * k d^2 r / ((1 - d) w0) = f, k = 1 / (impedance_max^2 time_constant^2 damping_ratio^2) and w0
 * the row's inverse inertia at q = 0 (1/m for a point mass at its contact): a shorter time
 * constant or a higher impedance makes it stiffer.
 *
 * Zero means default for every field (so a zeroed desc is MuJoCo's defaults); any other value
 * is used as given, and one out of range is an error naming the field as swarm::RobotBatchConfig
 * spells it (config.torque.limits.width, config.torque.contacts.ground.soft.power, ...). A flat
 * impedance, which MuJoCo gets from width 0, is impedance_min = impedance_max here. */
typedef struct swarm_soft_constraint_desc {
  float time_constant; /* solref[0], s, > 0 (raised to 2 dt when shorter); 0: 0.02 */
  float damping_ratio; /* solref[1], > 0 (1: critically damped); 0: 1 */
  float impedance_min; /* solimp[0], in (0, 1); 0: 0.9 */
  float impedance_max; /* solimp[1], in (0, 1); 0: 0.95 */
  float width;         /* solimp[2]: depth of the impedance's transition, m or rad, > 0; 0: 0.001 */
  float midpoint;      /* solimp[3], in (0, 1); 0: 0.5 */
  int power;           /* solimp[4], an integer from 1 to 16; 0: 2 */
  /* The fastest a violated constraint is pushed back, m/s or rad/s, finite > 0: a deeper
   * violation (a robot dropped through the ground) pushes no harder; 0: 3. */
  float max_push_speed;
} swarm_soft_constraint_desc;

/* The ground plane of contacts: height and friction are used as given (friction 0 is
 * frictionless), the soft constraint of the normal and the sticking friction rows has zero means
 * default. Friction has a circular cone |f_t| <= friction f_n: a contact sticks (springing back
 * to where it stuck) or slides with Coulomb friction. Defaults, when the desc's pointer is NULL:
 * height 0, friction 0.8, the soft constraint's defaults. */
typedef struct swarm_ground_desc {
  float height;   /* the plane z = height, m, finite */
  float friction; /* mu, finite >= 0 */
  swarm_soft_constraint_desc soft;
} swarm_ground_desc;

/* Zero means default for every field but robots. */
typedef struct swarm_robot_batch_desc {
  size_t robots; /* >= 1 */
  /* false: kinematic (joints are PD-driven double integrators, swarm_robot_batch_control_step);
   * true: rigid-body dynamics from the URDF's inertials (swarm_robot_batch_torque_step). */
  bool torque;
  /* Per independent joint in q order, dof entries each, or NULL: the defaults (kp 400, kd 40,
   * no armature). `dof` must be the model's when any of them is given. */
  size_t dof;
  const float* kp;
  const float* kd;
  /* Torque mode. An MJCF model's own values where these are NULL: its armature, gravity, joint
   * limits (below) and actuators. */
  const float* armature; /* rotor inertia, kg m^2 (torque mode) */
  const float* gravity;  /* 3 entries, world frame, m/s^2; NULL: (0, 0, -9.81) (torque mode) */
  swarm_torque_integrator integrator;
  const char* end_effector; /* the link IK steers; NULL: the model's default */
  /* Torque mode: contact spheres of contact_radius at the named links (none named: every leaf
   * link) against the ground; `ground` NULL gives the defaults of swarm_ground_desc. */
  bool contacts;
  const char* const* contact_links;
  size_t contact_link_count;
  float contact_radius;
  const swarm_ground_desc* ground;
  /* Torque mode: every joint limit's soft constraint (NULL: the defaults of
   * swarm_soft_constraint_desc). A joint pushed into a limit by its whole effort limit settles
   * at most limit_tolerance past it (rad or m, > 0; 0: 0.01): where the soft constraint would
   * let a light link with a strong motor sink deeper, the limit is made stiffer. */
  const swarm_soft_constraint_desc* limits;
  float limit_tolerance;
  /* Torque mode: speed caps of every step: each joint's speed, rad/s or m/s, > 0 (INFINITY: no
   * cap; 0: 100), a floating base's angular speed, rad/s, likewise (0: 100), and the furthest a
   * joint or the base turns in one Euler step, rad, finite > 0 (0: 0.25), which caps the speeds
   * at max_step_turn / dt too (semi-implicit Euler adds energy at (speed dt)^2 per step). */
  float max_joint_speed;
  float max_base_angular_speed;
  float max_step_turn;
  /* The model's collision shapes and contact pairs (swarm/robots/robot_collisions.h): an MJCF
   * file's by its rules; a URDF's <collision> primitives (swarm_urdf_desc.collisions), every
   * shape against every other but on one rigid body or a body and its parent (self-collision:
   * a URDF has no world geometry). swarm_robot_batch_detect_contacts fills
   * SWARM_ROBOT_SHAPE_CONTACTS. */
  bool collisions;
  /* Torque mode with collisions: the pairs of a link's shape with a world shape (an MJCF scene's
   * floor, tables, steps) act in every step, one contact per contact slot after the ground
   * contacts of desc->contacts, with each pair's friction, solref, solimp, margin and gap
   * (swarm/robots/robot_batch.h, TorqueModeConfig::world_contacts); the euler integrator, a
   * model without mimic joints. Self-collision pairs are detected, not stepped. */
  bool world_contacts;
} swarm_robot_batch_desc;

/* Allocates the batch in the context (its budget applies): q at zero clamped into the limits (a
 * floating base at the identity), velocities and torques zero, q_target = q, link poses the
 * forward kinematics of q. Errors name the field: robots 0, a wrong dof, a gain or armature not
 * finite >= 0, an unknown link, a model without inertials in torque mode, a soft constraint,
 * limit_tolerance or speed cap out of range, torque-mode fields of a kinematic batch, the
 * budget. */
swarm_status swarm_robot_batch_create(swarm_context context, swarm_robot_model model,
                                      const swarm_robot_batch_desc* desc, swarm_robot_batch* out);
/* Drops the caller's reference (NULL is ignored); views keep the batch alive. */
void swarm_robot_batch_destroy(swarm_robot_batch batch);
swarm_status swarm_robot_batch_size(swarm_robot_batch batch, size_t* robots);

/* The state a view shows, each f32[R][n] with strides [1, lane stride] (robot r's values are row
 * r), link poses f32[R][links][7] and friction forces f32[R][contacts][2]. Read-only: QDD,
 * LINK_POSES and the constraint forces (LIMIT_FORCES, CONTACT_*), which the steps write. The
 * contacts of the CONTACT_* arrays are the ground contacts (desc->contacts), then one per contact
 * slot of the world pairs (desc->world_contacts). */
typedef enum swarm_robot_array {
  SWARM_ROBOT_Q = 0,               /* [R][q_count] */
  SWARM_ROBOT_QD = 1,              /* [R][dof] joint velocities */
  SWARM_ROBOT_Q_TARGET = 2,        /* [R][dof] PD set points */
  SWARM_ROBOT_QD_TARGET = 3,       /* [R][dof] (torque mode) */
  SWARM_ROBOT_QDD_TARGET = 4,      /* [R][dof] (torque mode, computed torque) */
  SWARM_ROBOT_TORQUE = 5,          /* [R][dof] the last step's torques, or the caller's (NONE) */
  SWARM_ROBOT_QDD = 6,             /* [R][velocity_count] accelerations at the last step's start */
  SWARM_ROBOT_BASE_VELOCITY = 7,   /* [R][6] vx vy vz wx wy wz in the base frame (torque mode) */
  SWARM_ROBOT_LINK_POSES = 8,      /* [R][links][7] px py pz qx qy qz qw, world frame */
  SWARM_ROBOT_TARGET_POSE = 9,     /* [R][7] px py pz qx qy qz qw: the end effector's IK goal */
  SWARM_ROBOT_CONTACT_FORCES = 10, /* [R][contacts] normal forces of the last step, N */
  /* [R][dof] (torque mode; [R][0] in a kinematic batch) each joint limit's force in the last
   * step, N m or N: > 0 pushes the joint back into its range, 0 while the limit is inactive
   * (the joint's torque is +force at its lower limit, -force at its upper). */
  SWARM_ROBOT_LIMIT_FORCES = 11,
  /* [R][contacts][2] each contact's friction force in the last step along its tangents t1 t2
   * (the orthonormal basis of swarm/kernels/robots/robot_contact.h ContactTangents: x y in the
   * world for a ground contact), N */
  SWARM_ROBOT_CONTACT_FRICTION_FORCES = 12,
  SWARM_ROBOT_CONTACT_SLIDING = 13, /* [R][contacts] 1: the contact slides, 0: it sticks */
  SWARM_ROBOT_CTRL = 14, /* [R][actuators] an MJCF model's actuator inputs (torque mode) */
  /* [R][slots][7] (desc->collisions) every contact slot's distance (m, negative: penetrating;
   * FLT_MAX: the slot holds no contact), point x y z halfway between the surfaces and unit normal
   * x y z from the pair's first shape to its second (swarm_robot_batch_contact_slot), as of the
   * last swarm_robot_batch_detect_contacts. */
  SWARM_ROBOT_SHAPE_CONTACTS = 15,
  /* [R][contacts][7] (torque mode) each contact's distance (m; FLT_MAX: a world slot that holds
   * no contact), point x y z and unit normal x y z pushing the robot, at the last step's start. */
  SWARM_ROBOT_CONTACT_GEOMETRY = 16,
} swarm_robot_array;
swarm_status swarm_robot_batch_tensor(swarm_robot_batch batch, swarm_robot_array array,
                                      swarm_tensor* out);

/* The steps run on the context's threads (serialised with its other kernel calls). Before a
 * step every input array it reads is checked finite (an error names the array, robot and
 * column, and nothing is changed). */
/* Forward kinematics of q into the link poses. */
swarm_status swarm_robot_batch_forward_kinematics(swarm_robot_batch batch);
/* desc->collisions: every robot's contacts (SWARM_ROBOT_SHAPE_CONTACTS) at its current link
 * poses (kept current by forward kinematics and every step). */
swarm_status swarm_robot_batch_detect_contacts(swarm_robot_batch batch);
/* The contact slots of a batch (0 without desc->collisions) and what slot `slot` belongs to: its
 * pair, the pair's two shapes (names: the model file's, "" for an unnamed one; the names live as
 * long as the batch), their links (-1: fixed in the world; link names from
 * swarm_robot_model_name) and the margin within which MuJoCo's rule lets it act. */
typedef struct swarm_contact_slot_info {
  size_t pair;
  const char* shape1;
  const char* shape2;
  int link1;
  int link2;
  float margin;
} swarm_contact_slot_info;
swarm_status swarm_robot_batch_contact_slots(swarm_robot_batch batch, size_t* slots);
swarm_status swarm_robot_batch_contact_slot(swarm_robot_batch batch, size_t slot,
                                            swarm_contact_slot_info* out);
/* Kinematic mode: PD toward q_target, integration with limits over dt seconds (> 0), FK. */
swarm_status swarm_robot_batch_control_step(swarm_robot_batch batch, float dt);
/* One damped-least-squares IK step writing q_target toward the target pose (from the current
 * link poses). */
swarm_status swarm_robot_batch_ik_step(swarm_robot_batch batch);
/* Torque mode: controller, the joint limits' and contacts' soft constraints, forward dynamics,
 * integration over dt seconds (> 0), FK. */
swarm_status swarm_robot_batch_torque_step(swarm_robot_batch batch, float dt,
                                           swarm_torque_controller controller);
/* xxHash of the state arrays (array by array, so it depends on the batch size). */
swarm_status swarm_robot_batch_state_hash(swarm_robot_batch batch, uint64_t* out);
/* A digest of the state that does not depend on how a run's robots are split into batches
 * (swarm::RobotBatch::StateDigest): batches of consecutive ranges, robot 0 of each being robot
 * `first_robot` of the run, have digests that add up (mod 2^64) to one batch's. Equal to
 * `swarm-robots run`'s "state hash" for the same state. */
swarm_status swarm_robot_batch_state_digest(swarm_robot_batch batch, uint64_t first_robot,
                                            uint64_t* out);

/* ---------------------------------------------------------------------------------------------
 * Robot tasks (swarm/robots/robot_tasks.h): what swarm-robots' robots are asked to do, on a batch
 * of the caller's. A run split among processes gives each process a batch of a consecutive range
 * of the robots and sets first_robot to the range's start: every process's robots then do
 * exactly what they do in one batch of all the robots (same bits), and the batches' state
 * digests (swarm_robot_batch_state_digest with the same first_robot) add up to one batch's.
 *
 *   swarm_robot_task_desc task = {SWARM_TASK_REACH, 1, first, false, SWARM_TORQUE_PD_GRAVITY};
 *   swarm_robot_task runner;
 *   swarm_robot_task_create(batch, &task, &runner);   // sets the batch's start state
 *   for (uint64_t step = 0; step < steps; ++step) swarm_robot_task_step(runner, step, 0.002f);
 */
typedef enum swarm_robot_task_kind {
  SWARM_TASK_REACH = 0,  /* reach a random reachable pose: IK + PD */
  SWARM_TASK_TRACK = 1,  /* follow a goal moving on a circle: IK + PD */
  SWARM_TASK_RANDOM = 2, /* PD toward random joint targets, resampled every 250 steps */
  SWARM_TASK_STAND = 3,  /* floating base, torque mode with contacts: fall and stand */
} swarm_robot_task_kind;

typedef struct swarm_robot_task_desc {
  swarm_robot_task_kind task;
  uint64_t seed;
  uint64_t first_robot; /* the batch's robot 0 among all robots of the run */
  bool
      torque_control; /* torque steps with `controller` (a torque-mode batch), else control steps */
  swarm_torque_controller controller;
} swarm_robot_task_desc;

typedef struct swarm_robot_task_impl* swarm_robot_task;

/* Checks the task against the batch (torque mode, floating base and contacts for stand), then
 * sets the batch's start state. The handle keeps the batch alive. */
swarm_status swarm_robot_task_create(swarm_robot_batch batch, const swarm_robot_task_desc* desc,
                                     swarm_robot_task* out);
/* Step `step` (0, 1, 2, ...) of the task: its targets, then one control or torque step of dt. */
swarm_status swarm_robot_task_step(swarm_robot_task task, uint64_t step, float dt);
void swarm_robot_task_destroy(swarm_robot_task task);

/* The task's errors as totals that merge (swarm::TaskErrorTotals): the robot and success
 * counts, exact sums of each error (so a mean does not depend on the order or the split) and
 * maxima, as words a process can send to another (MPI_UINT64_T). The totals of the batches of a
 * split run, merged in any order, summarize to the bits of one batch of all its robots. All-zero
 * words are the totals of no robots.
 *
 *   swarm_task_totals mine, all[ranks];
 *   swarm_robot_task_totals(runner, &mine);
 *   MPI_Gather(mine.words, SWARM_TASK_TOTALS_WORDS, MPI_UINT64_T,
 *              all, SWARM_TASK_TOTALS_WORDS, MPI_UINT64_T, 0, MPI_COMM_WORLD);
 *   for (int r = 1; r < ranks; ++r) swarm_task_totals_merge(&all[0], &all[r]);   // rank 0
 *   swarm_task_summary summary;
 *   swarm_task_totals_summary(&all[0], &summary);
 */
#define SWARM_TASK_TOTALS_WORDS 26
typedef struct swarm_task_totals {
  uint64_t words[SWARM_TASK_TOTALS_WORDS];
} swarm_task_totals;

typedef struct swarm_task_summary {
  uint64_t robots;
  uint64_t successes;                     /* within the task's success thresholds (reach, stand) */
  double success_rate;                    /* successes / robots; 0 for no robots */
  double mean_position_m, max_position_m; /* end-effector position error (stand: base height) */
  double mean_orientation_rad, max_orientation_rad; /* orientation error (stand: base tilt) */
  double mean_joint_error, max_joint_error;         /* max over joints of |q - q_target| */
} swarm_task_summary;

/* The totals of the batch's robots now: their errors against the task's goals. */
swarm_status swarm_robot_task_totals(swarm_robot_task task, swarm_task_totals* out);
/* into = into merged with other. */
swarm_status swarm_task_totals_merge(swarm_task_totals* into, const swarm_task_totals* other);
/* The means (each exact sum rounded once, then divided by the robots) and maxima. */
swarm_status swarm_task_totals_summary(const swarm_task_totals* totals, swarm_task_summary* out);

#ifdef __cplusplus
} /* extern "C" */
#endif
