"""Every threshold the photo reader is tuned by, declared in one place and grouped by what it
tunes: finding the tiles (segment.py) and judging the reading (reader.py). The numbers were set
on the synthetic tuning set (bench/photos.py --first 20000); one, BAR_OVERLAP, after seeing a
development photo (bench/README.md says which).
"""

# -- Finding the tiles: shapes, and the box network's verdicts (segment.py).
# A tile is about twice as long as it is wide; perspective and bevels stretch that.
SINGLE_ASPECT = (1.45, 2.7)
# A shape filling less of its rotated box than this is not a tile (glare, a hand, a cup).
MIN_FILL = 0.8
# A shape filling between this and MIN_FILL may be touching tiles that make no full grid.
PART_FILL = 0.45
# A cell of such a shape is a tile when this much of it is not table, and its dividing line
# stands out this much more than the face's rows do.
COVERED = 0.85
DIVIDED = 3.0
# A candidate box is kept as a tile when the box network gives it at least these odds.
KEEP = 0.5
# For the box network to choose among: the cells of this many of the best-scored grids of each
# touching group.
GRIDS = 6
# A dividing line is a straight bar, at least BAR_ASPECT times as long as it is thick, filling
# BAR_FILL of its box; from BAR_LENGTH times the size of the tiles found to a tile's width. It
# stands out from what is around it by BAR_CONTRAST grey levels (a thin line, lighter or
# darker), or is BAR_LOCAL darker than the mean of a wider block.
BAR_ASPECT = 4.0
BAR_FILL = 0.6
BAR_LENGTH = 0.45
BAR_CONTRAST = 25
BAR_LOCAL = 12
# A photo with no tile found whose sides are in this ratio, and which has a dividing line across
# its middle, is a close-up of one tile filling the frame (its edges outside the photo).
FRAME_ASPECT = (1.5, 2.8)
# ... and so is such a photo where at most FRAME_FEW tiles were found, each shorter than this
# share of the photo's long side (what was boxed is a part of the close-up's tile).
FRAME_FEW = 2
FRAME_SMALL = 0.4
# ... and whose dividing line spans at least FRAME_LINE of its short side, its middle at most
# FRAME_LINE_OFF of its long side from the photo's centre.
FRAME_LINE = 0.6
FRAME_LINE_OFF = 0.15
# A tile proposed from its dividing line alone (no mask outlined it) is kept at these odds.
KEEP_FROM_BAR = 0.8
# ... or these, from a straight run that is not a bar by its outline (touching something else).
KEEP_FROM_RUN = 0.95
# ... and when it covers at most this much of a tile found (tiles lie beside each other).
BAR_OVERLAP = 0.1
# ... and when at least three of its sides lie on an edge this much stronger than its face's.
OUTLINE = 1.0
# The most dividing lines searched on one photo (each costs two or three boxes to judge).
MAX_BARS = 400

# -- The table: what is not table is found by its colour distance from the photo's border.
# The photo is smoothed this much (sigma, px) before colours are compared (grain, noise).
TABLE_BLUR = 1.2
# The border band is 1/BORDER_PARTS of the short side, at least BORDER_MIN px.
BORDER_PARTS = 25
BORDER_MIN = 2
# Chroma counts this much more than lightness (a pale tile on a pale cloth differs in hue).
CHROMA_WEIGHT = 1.4
# Not table: at least this far from the table's colour (Lab units; Otsu's level when higher) ...
TABLE_DISTANCE = 22.0
# ... and TABLE_SPREAD times as far as most of the border itself is (a busy cloth varies).
TABLE_SPREAD = 1.6
TABLE_SPREAD_PERCENTILE = 90
# A table of more than one colour: the border's TABLE_COLOURS main colours (k-means on at most
# TABLE_SAMPLE of its pixels), each of at least TABLE_COLOUR_SHARE of it, are table too.
TABLE_COLOURS = 3
TABLE_SAMPLE = 4000
TABLE_COLOUR_SHARE = 0.15
# Specks this small (px) are opened away; masks and edges are thickened by as much.
SPECK = 3
# Pips the table's colour are closed over with a disc of 1/PIP_HOLE_PARTS of the short side.
PIP_HOLE_PARTS = 120

# -- Edges: regions closed by strong edges (a tile on a towel), and the strength of changes.
EDGE_BLUR = 1.5
# Canny's thresholds follow the photo's strong edges (this percentile of the gradient), as a
# share of it, never below a floor (white on white has weak edges everywhere).
EDGE_PERCENTILE = 97
EDGE_LOW, EDGE_LOW_SHARE = 12.0, 0.25
EDGE_HIGH, EDGE_HIGH_SHARE = 30.0, 0.6
# The wide search also closes regions by edges this much fainter.
FAINT_EDGES = 0.5
GRADIENT_BLUR = 1.0

# -- Shapes: which outlines may be tiles, and how well each kind fits (lower ranks first).
# A tile's short side is at least this share of the photo's short side.
MIN_TILE_SIDE = 0.035
# A shape covering more of the photo than this is the table or the frame, not a tile.
MAX_SHAPE = 0.9
# A shape this near square may be half a tile, cut off by its dividing line.
SQUARE_ASPECT = 1.3
# A group of touching tiles that makes no full grid is at least this many tiles' area.
PART_AREA = 4
# Fits: a tile-shaped outline by how far it is from 2:1 (plus this for each later mask), a grid's
# cell, two squares paired, a cell of a partial grid; the box network's odds count most, the
# fit FIT_WEIGHT as much.
FIT_PER_SOURCE = 0.05
FIT_GRID = 0.5
FIT_PAIR = 0.4
FIT_PART = 0.6
FIT_WEIGHT = 0.1

# -- Dividing lines: bars and straight runs, and the boxes proposed around them.
# A bar is at most this much longer than the tiles found are wide.
BAR_LONGEST = 1.05
# Boxes tried around a bar: this share of the tiles' width either side of it ...
BAR_SIZES = (0.9, 1.1)
# ... or, with no tile to measure by, a bar spanning these shares of its tile's width.
BAR_SPANS = (0.9, 0.75, 0.6)
# Top-hat and black-hat kernels: 1/BAR_KERNEL_PARTS of the short side (thinner than a tile's
# edge), at least BAR_KERNEL_MIN px; the adaptive threshold's block likewise.
BAR_KERNEL_PARTS, BAR_KERNEL_MIN = 40, 5
BAR_BLOCK_PARTS, BAR_BLOCK_MIN = 15, 15
# A bar is at least this share of the photo's short side.
BAR_SHORTEST = 0.02
# Straight runs: at least this share of the short side (and RUN_MIN px) long, found at 180 /
# RUN_ANGLES degrees; runs within RUN_STEP of the short side (RUN_STEP_MIN px) and
# RUN_SAME_ANGLE degrees of each other are the same run.
RUN_SHORTEST, RUN_MIN = 0.03, 6
RUN_ANGLES = 90
RUN_STEP, RUN_STEP_MIN = 0.01, 2.0
RUN_SAME_ANGLE = 10

# -- Outlines: a box proposed from a bar lies on a tile's rim.
# Its sides are looked for within this share of the tile's width (at least OUTLINE_REACH_MIN
# px), OUTLINE_DEPTH points across, OUTLINE_SAMPLES points along the middle OUTLINE_SPAN of
# each side; the face is the middle OUTLINE_FACE of the box, and a plain face changes by
# OUTLINE_PLAIN grey levels.
OUTLINE_REACH, OUTLINE_REACH_MIN = 0.1, 2.0
OUTLINE_DEPTH = 9
OUTLINE_SAMPLES = 15
OUTLINE_SPAN = (0.15, 0.85)
OUTLINE_FACE = 0.7
OUTLINE_PLAIN = 8

# -- Choosing: boxes sharing this share of the smaller one are the same tile; among three or
# more tiles, one under SMALLEST_TILE of the median area is a pip or a fleck.
SAME_TILE = 0.3
SMALLEST_TILE = 0.3
# Two squares are one tile's halves when their areas are within PAIR_AREAS of each other,
# their centres PAIR_GAP of their side apart and together within PAIR_ASPECT (log) of 2:1.
MAX_SQUARES = 200
PAIR_AREAS = (0.66, 1.5)
PAIR_GAP = (0.85, 1.25)
PAIR_ASPECT = 0.2

# -- Grids of touching tiles.
# A group is straightened to at most GRID_LONGEST px long; one under GRID_SMALLEST px is none.
GRID_LONGEST = 600
GRID_SMALLEST = 8
# Grids tried: up to GRID_ALONG x GRID_ACROSS cells, GRID_CELLS in all, each within CELL_ASPECT
# (log) of 2:1 and CELL_PIPS pip diameters wide; a grid's score loses GRID_ASPECT_COST for each
# unit of that log.
GRID_ALONG, GRID_ACROSS, GRID_CELLS = 15, 5, 30
CELL_ASPECT = 0.3
CELL_PIPS = (3.2, 14)
GRID_ASPECT_COST = 40
# A cut moves at most 1/SETTLE_PARTS of a cell; crossing a pip costs SETTLE_PIP_COST grey levels.
SETTLE_PARTS = 5
SETTLE_PIP_COST = 400
# A grid's score: its dividers' contrast, SEAM_WEIGHT of how dark its cuts are, less
# THROUGH_PIP_COST for the share of its cuts running through pips.
SEAM_WEIGHT = 0.5
THROUGH_PIP_COST = 200
# Pips: spots this far from the face's colour (or Otsu's level), between PIP_AREA shares of the
# stretch's area, at least PIP_ROUND round (4 pi area / perimeter^2); fewer than PIP_FEWEST give
# no pip size.
PIP_DISTANCE = 20.0
PIP_AREA = (0.0002, 0.02)
PIP_ROUND = 0.7
PIP_FEWEST = 3

# -- Judging the reading (reader.py).
# How likely a tile is read right (reader.how_sure): a logistic of its features, in order: 1, the
# log-odds of the less sure half and of the surer half (each the network's probability of the
# value read, the mean over the half's eight views), the log-odds of the box network's verdict,
# whether the box was cut out of a bigger shape (or proposed from its dividing line alone), how
# far its sides are from 1:2 and its size from the photo's typical tile (absolute logs), and the
# share of the eight views that agree on the less agreed half. Fitted on generated tuning photos
# only (bench/photos.py --every --first 90000, 400 photos, and --first 20000, 100 photos, read
# by pips.onnx version 3: 2,714 tiles, 695 of them wrong), never on the held-out sets or on
# real photos; bench/README.md,
# "The '?' marks", has the fit and the reliability curve. (A box whose sides are off 1:2 was
# outlined by a mask on the photo, where one made from a grid or a dividing line is exactly
# 1:2 and more often wrong: hence the positive weight.)
RIGHT_ODDS = (-6.126, 0.52, -0.058, 0.612, -0.059, 2.48, -0.164, 3.445)
# A half the network is less sure of than this caps the tile's likelihood at that: the
# logistic, linear in its terms, trusts the views' agreement over a doubtful half, where on
# the tuning photos a tile whose less sure half was read 0.5-0.6 sure was right 62% of the
# time.
DOUBTFUL_HALF = 0.6
# Two tiles read alike: a set has one of each, so at most one is right, and each is given at
# most this likelihood.
TWICE = 0.5
# Below this a tile is marked "?" for the scorer to check. With DOUBTFUL_HALF and TWICE, "?"
# marks 97.4% of the 400 every-kind tuning photos' misread tiles (those left after NOT_A_TILE)
# for 13.9% of their right ones; the logistic alone at 0.8: 92.1% for 10.6%, at 0.85 with a
# doubtful half under 0.7 but no TWICE: 95.3% for 17.9%.
LOW_CONFIDENCE = 0.8
# A tile between two found ones (around.between): their centres this many of the first one's
# widths (or lengths) apart, at most BETWEEN_OFF of it aside, their areas within BETWEEN_SIZE
# of each other; the box between kept when the box network gives it KEEP_BETWEEN.
BETWEEN_SPAN = (1.75, 2.3)
BETWEEN_OFF = 0.3
BETWEEN_SIZE = 0.3
KEEP_BETWEEN = 0.5
# A tile next to a found one (a tile's width or length beside it, over no tile found) is kept
# at these odds; NEXT_ROUNDS times, each round next to the last's.
KEEP_NEXT = 0.8
NEXT_ROUNDS = 3
# Below this a box is left out of the reading: what the networks and its shape say of it make
# it unlikely a tile read right (a square of a checked cloth, a floor's grout, a box beside the
# tiles, a tile read so doubtfully that the scorer is better served adding it by hand). On the
# 400 every-kind tuning photos, with the tiles found around those kept looked for again, the
# floor at 0.02 / 0.05 / 0.1 / 0.2 read 306 / 311 / 313 / 310 exactly; the 100 usual ones
# 96 / 96 / 98 / - (the seventh session chose 0.02 before the second look).
NOT_A_TILE = 0.1
# Boxes read alike this many times or more (counting those under NOT_A_TILE too) are left
# out: on the 400 every-kind tuning photos, 176 boxes were in such groups (a checked cloth's
# squares read 18|18, blanks of a table read 0|0) and none was a tile; two alike were 12 tiles
# (8 read right) and 22 boxes of no tile. Counting the boxes under the floor as well: 313 -> 315
# photos exact, no tile more missed.
REPEATED = 3
# Blurred: the tiles' sharpness (the variance of the Laplacian) under this.
BLURRED = 20
# Dark: this percentile of the photo's brightness under DARK.
DARK_PERCENTILE, DARK = 99, 90
# Cut: a tile's corner within this many pixels of the photo's edge.
CUT_EDGE = 2.0
# Glare is a blown-out highlight (all channels at least BLOWN) standing out from the tile's own
# face: blobs of at least GLARE_BLOB of a tile whose median is GLARE_STEP below BLOWN (a white pip
# on a black tile is blown too, but small), or a tile blown all over whose darkest pixels (its
# pips, its dividing line) are washed out above WASHED_OUT. Glare is advised when those cover
# GLARE_SHARE of the tiles. White tiles in bright light are not glare: their pips still show.
BLOWN = 250
GLARE_STEP = 15
GLARE_BLOB = 0.03
WASHED_OUT = 100
GLARE_SHARE = 0.02

# The darkest pixels of a tile (its pips, its line): this percentile of its brightness.
WASHED_OUT_PERCENTILE = 0.15
