// swarm: batched deterministic SIMD kernels for games and robots. The umbrella header.
#pragma once

#include "engine/buffer.h"
#include "engine/flags.h"
#include "engine/memory.h"
#include "engine/particle_ops.h"
#include "engine/particle_system.h"
#include "engine/simd.h"
#include "engine/state_hash.h"
#include "engine/status.h"
#include "engine/thread_pool.h"
#include "engine/tile_pipeline.h"
#include "kernels/aos.h"
#include "kernels/integrate.h"
#include "kernels/integrate_reference.h"
#include "kernels/targets.h"
#include "kernels/views.h"
