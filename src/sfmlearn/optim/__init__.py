"""Non-LP solvers: small convex QPs through HiGHS (:mod:`.qp`)."""
