"""What makes the photo reader's networks and what tests and benchmarks draw: the synthetic
photos (synthetic.py, textures.py), the data cut from them and the trainers. Never imported by
the app: the runtime reads the models it made (scorekeeper/photos/models.py)."""
