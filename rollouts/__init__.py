"""Rollouts as a service: :mod:`rollouts.cluster` runs :mod:`cubecore.rollout`'s seeded
batches on a Dask cluster (issue #41). No streamlit here."""
