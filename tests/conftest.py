"""Settings every test shares."""

from __future__ import annotations

from hypothesis import settings

# No property test is timed: speed is measured by the benches in bench/, and a deadline only
# fails a test when the shared 2-core machine is busy (test_ids' round trip did, under load).
settings.register_profile("meeple", deadline=None)
settings.load_profile("meeple")
