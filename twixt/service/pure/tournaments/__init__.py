"""The mathematics of tournaments: who plays whom (round robins, Swiss rounds, league groups),
the maximum matching Swiss rounds need, and the standings with their tie-breaks."""
