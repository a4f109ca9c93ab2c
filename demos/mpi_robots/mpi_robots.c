/* An MPI program that shards a robot run itself through swarm's C API (swarm_c.h): rank r of N
 * steps a batch of its own consecutive range of the robots, with first_robot set to the range's
 * start, so its robots do exactly what they do in one batch of all of them. Rank 0 gathers the
 * state digests (which add up, mod 2^64) and the task totals (which merge), and prints the run's
 * state hash and summary: the same as `swarm-robots run` prints for the same run.
 *
 *   mpirun -np 4 swarm-mpi-robots assets/robots/ur5.urdf 100000 1000 [reach|track|random]
 *       [kinematic|torque]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swarm/c_api/swarm_c.h"

/* The failing rank prints why; MPI_Abort then ends every rank of the job, also those waiting in
 * a collective for this one. */
static void Check(swarm_status status, const char* what, int rank) {
  if (status == SWARM_OK) return;
  fprintf(stderr, "swarm-mpi-robots: rank %d: %s: %s\n", rank, what, swarm_last_error());
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  /* Ranks may be started with different arguments (mpirun ... : ...): a rank that finds its own
   * wrong ends the job rather than leave the others waiting. */
  if (argc < 4) {
    fprintf(stderr, "usage: mpirun -np N %s <urdf> <robots> <steps> [task] [control]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const uint64_t robots = strtoull(argv[2], NULL, 10);
  const uint64_t steps = strtoull(argv[3], NULL, 10);
  const char* task_name = argc > 4 ? argv[4] : "reach";
  const bool torque = argc > 5 && strcmp(argv[5], "torque") == 0;
  swarm_robot_task_kind kind = SWARM_TASK_REACH;
  if (strcmp(task_name, "track") == 0) kind = SWARM_TASK_TRACK;
  if (strcmp(task_name, "random") == 0) kind = SWARM_TASK_RANDOM;
  if (robots < (uint64_t)ranks) {
    fprintf(stderr, "swarm-mpi-robots: rank %d: need at least one robot per rank\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  /* This rank's robots: [first, first + count), the first robots % ranks ranks one longer. */
  const uint64_t base = robots / (uint64_t)ranks, longer = robots % (uint64_t)ranks;
  const uint64_t r = (uint64_t)rank;
  const uint64_t first = r * base + (r < longer ? r : longer);
  const uint64_t count = base + (r < longer ? 1 : 0);

  swarm_context_desc context_desc = {0, 1}; /* no budget, one thread per rank */
  swarm_context context;
  Check(swarm_context_create(&context_desc, &context), "context", rank);
  swarm_robot_model model;
  Check(swarm_robot_model_load_urdf(argv[1], NULL, &model), "URDF", rank);
  swarm_robot_batch_desc batch_desc;
  memset(&batch_desc, 0, sizeof(batch_desc));
  batch_desc.robots = count;
  batch_desc.torque = torque;
  /* swarm-robots' torque-mode default: a rotor inertia of 0.1 on every joint. */
  swarm_robot_model_info info;
  Check(swarm_robot_model_info_get(model, &info), "model", rank);
  const size_t dof = info.dof;
  float* armature = malloc(dof * sizeof(float));
  for (size_t j = 0; j < dof; ++j) armature[j] = 0.1f;
  if (torque) {
    batch_desc.dof = dof;
    batch_desc.armature = armature;
  }
  swarm_robot_batch batch;
  Check(swarm_robot_batch_create(context, model, &batch_desc, &batch), "batch", rank);
  free(armature);

  swarm_robot_task_desc task_desc = {kind, 1, first, torque, SWARM_TORQUE_PD_GRAVITY};
  swarm_robot_task task;
  Check(swarm_robot_task_create(batch, &task_desc, &task), "task", rank);
  const double start = MPI_Wtime();
  for (uint64_t step = 0; step < steps; ++step) {
    Check(swarm_robot_task_step(task, step, 0.002f), "step", rank);
  }
  const double seconds = MPI_Wtime() - start;

  /* One message per rank: the digest, then the task totals. */
  uint64_t mine[1 + SWARM_TASK_TOTALS_WORDS];
  Check(swarm_robot_batch_state_digest(batch, first, &mine[0]), "digest", rank);
  swarm_task_totals totals;
  Check(swarm_robot_task_totals(task, &totals), "totals", rank);
  memcpy(&mine[1], totals.words, sizeof(totals.words));
  uint64_t* all = rank == 0 ? malloc(sizeof(mine) * (size_t)ranks) : NULL;
  MPI_Gather(mine, 1 + SWARM_TASK_TOTALS_WORDS, MPI_UINT64_T, all, 1 + SWARM_TASK_TOTALS_WORDS,
             MPI_UINT64_T, 0, MPI_COMM_WORLD);
  double slowest = 0.0;
  MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    uint64_t digest = 0;
    swarm_task_totals run;
    memset(&run, 0, sizeof(run)); /* the totals of no robots */
    for (int from = 0; from < ranks; ++from) {
      const uint64_t* words = all + (size_t)from * (1 + SWARM_TASK_TOTALS_WORDS);
      digest += words[0]; /* mod 2^64 */
      swarm_task_totals part;
      memcpy(part.words, words + 1, sizeof(part.words));
      Check(swarm_task_totals_merge(&run, &part), "merge", rank);
    }
    swarm_task_summary summary;
    Check(swarm_task_totals_summary(&run, &summary), "summary", rank);
    printf("%d ranks, %llu robots, %llu steps of task %s (%s): %.3g robot-steps/s\n", ranks,
           (unsigned long long)robots, (unsigned long long)steps, task_name,
           torque ? "torque" : "kinematic", (double)robots * (double)steps / slowest);
    printf("success: %llu of %llu robots\n", (unsigned long long)summary.successes,
           (unsigned long long)summary.robots);
    printf("final joint tracking error |q - q_target|: mean %.6f, max %.6f\n",
           summary.mean_joint_error, summary.max_joint_error);
    printf("state hash %016llx after %llu steps\n", (unsigned long long)digest,
           (unsigned long long)steps);
    free(all);
  }
  swarm_robot_task_destroy(task);
  swarm_robot_batch_destroy(batch);
  swarm_robot_model_destroy(model);
  swarm_context_destroy(context);
  MPI_Finalize();
  return 0;
}
