"""Interacting particle systems (swarm_particle_system_*): ParticleSystem, which
Context.particle_system makes, and the interaction presets' names."""

import ctypes

from ._handles import _Handle
from ._structures import _InteractionStats
from .tensors import Tensor

_INTERACTIONS = {"granular": 1, "fluid": 2, "flock": 3}
_PARTICLE_ARRAYS = {"positions": 0, "velocities": 1, "ids": 2}


class ParticleSystem(_Handle):
    """An interacting particle system (Context.particle_system). Storage is kept in the neighbour
    grid's cell order, so a slot's particle changes from step to step: ids[slot] is the index
    the particle had at creation. positions and velocities are writable [N, 4] float32 views
    (x, y, z, w); ids is a read-only uint32 [N] view.

    Views keep the system's memory alive (each holds a C tensor handle, which holds the system's
    state): after close() every method raises "use of a closed particle system", arrays taken
    before stay valid, and the memory returns to the context's budget when the last goes."""

    _destroy = "swarm_particle_system_destroy"
    _kind = "particle system"

    def _view(self, name):
        handle = self._lib._new_handle("swarm_particle_system_tensor", self._handle,
                                       _PARTICLE_ARRAYS[name])
        return Tensor(self._lib, handle).numpy()

    @property
    def positions(self):
        return self._view("positions")

    @property
    def velocities(self):
        return self._view("velocities")

    @property
    def ids(self):
        return self._view("ids")

    def step(self, dt=1.0 / 60.0):
        self._lib._call("swarm_particle_system_step", self._handle, dt)

    @property
    def stats(self):
        """neighbor_seconds, interaction_seconds, average_neighbors, steps, state_hash."""
        out = _InteractionStats()
        self._lib._call("swarm_particle_system_stats", self._handle, ctypes.byref(out))
        return {name: getattr(out, name) for name, _ in _InteractionStats._fields_}

