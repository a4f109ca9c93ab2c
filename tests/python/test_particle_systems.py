"""Interacting particle systems from Python (ctx.particle_system): zero-copy views that stay
valid across steps, writes through them reaching the simulation, ids a permutation of the slots,
the same state hash on 1 and 3 threads, particles kept in their box, and errors.

References: numpy arithmetic on the views themselves (the box, the permutation); the hash
equality across thread counts is exact by swarm's determinism rule."""

import unittest

import numpy as np

from swarm_test_support import library, main
import swarm

BOX = ((-1.0, 0.0, -1.0), (1.0, 2.0, 1.0))


class ParticleSystems(unittest.TestCase):
    def setUp(self):
        self.lib = library()

    def test_views_stay_valid_and_see_every_step(self):
        for interaction in ("fluid", "granular", "flock"):
            ctx = self.lib.context(threads=2)
            system = ctx.particle_system(3000, interaction, box=BOX, seed=3)
            positions, velocities, ids = system.positions, system.velocities, system.ids
            self.assertEqual(positions.shape, (3000, 4))
            self.assertEqual(positions.dtype, np.float32)
            self.assertEqual(ids.dtype, np.uint32)
            self.assertFalse(ids.flags.writeable)
            before = positions.copy()
            for _ in range(10):
                system.step(1.0 / 60.0)
            # The same arrays show the new state: the system writes into the buffers they view.
            self.assertFalse(np.array_equal(before, positions), interaction)
            np.testing.assert_array_equal(positions, system.positions)
            np.testing.assert_array_equal(np.sort(ids), np.arange(3000, dtype=np.uint32))
            low, high = np.array(BOX[0], np.float32), np.array(BOX[1], np.float32)
            self.assertTrue(np.all(positions[:, :3] >= low) and np.all(positions[:, :3] <= high),
                            interaction)
            self.assertTrue(np.all(np.isfinite(velocities[:, :3])), interaction)
            stats = system.stats
            self.assertEqual(stats["steps"], 10)
            self.assertGreater(stats["average_neighbors"], 1.0)

    def test_same_bits_on_one_and_three_threads(self):
        hashes = []
        for threads in (1, 3):
            ctx = self.lib.context(threads=threads)
            system = ctx.particle_system(2000, "fluid", box=BOX)
            for _ in range(8):
                system.step(1.0 / 60.0)
            hashes.append(system.stats["state_hash"])
        self.assertEqual(hashes[0], hashes[1])

    def test_writes_through_the_views_reach_the_simulation(self):
        ctx = self.lib.context()
        system = ctx.particle_system(500, "flock", box=((-5, -5, -5), (5, 5, 5)), seed=1)
        velocities = system.velocities
        velocities[:, :3] = 0.0
        velocities[:, 0] = 3.0  # everyone flies along +x
        system.step(1.0 / 60.0)
        mean = system.velocities[:, :3].mean(axis=0)
        self.assertGreater(mean[0], 2.0)  # aligned boids keep the common heading

    def test_errors_name_the_problem(self):
        ctx = self.lib.context()
        with self.assertRaisesRegex(swarm.SwarmError, "interaction must be one of"):
            ctx.particle_system(10, "plasma")
        with self.assertRaisesRegex(swarm.SwarmError, "box_min < box_max"):
            ctx.particle_system(10, "fluid", box=((0, 0, 0), (1, -1, 1)))
        with self.assertRaisesRegex(swarm.SwarmError, "count must be at least 1"):
            ctx.particle_system(0, "fluid")
        system = ctx.particle_system(100, "granular", box=BOX)
        with self.assertRaisesRegex(swarm.SwarmError, "dt"):
            system.step(0.0)
        system.positions[42, 1] = np.nan
        with self.assertRaisesRegex(swarm.SwarmError, "point 42 is not finite"):
            system.step(1.0 / 60.0)
        self.assertEqual(system.stats["steps"], 0)
        small = self.lib.context(budget_bytes=1 << 20)
        with self.assertRaisesRegex(swarm.SwarmError, "budget"):
            small.particle_system(100000, "fluid")


if __name__ == "__main__":
    main()
