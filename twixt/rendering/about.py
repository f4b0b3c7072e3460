"""What can be said of the pictures without drawing one: the themes, the sides a board may be
turned to and the widths it may be drawn at. `twixt render --help` and `twixt analyze --help`
list these, and neither should wait for Pillow, the fonts or the themes' colours to do so.

The widths are defined here and used from here (`rendering.options`, `rendering.replay`);
the themes and sides are the values of `ThemeName` and `rules.Colour`, which
tests/cli/test_shown.py holds equal to these.
"""

#: the themes a picture is drawn in (`ThemeName`'s values), the default first
THEMES = ("light", "dark")
#: the colours whose borders may face the viewer (`rules.Colour`'s values), the default first
SIDES = ("red", "black")

#: Discord shows an attachment at up to about this width on a desktop; phones scale it down.
DEFAULT_WIDTH = 1000
#: the narrowest and widest a picture may be drawn (pixels)
MIN_WIDTH = 200
MAX_WIDTH = 4000
#: Replays are drawn smaller than single pictures: 60 frames must stay far below 8 MB.
REPLAY_WIDTH = 720
