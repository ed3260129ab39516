"""HTTP plumbing: what answers a request before, around or after the views (kept answers, polls,
ETags, compression, headers, limits per client, static files, the health probe)."""
