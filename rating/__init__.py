"""fiderate's rating maths: FIDE Rating Regulations (versioned by date), generic Elo, UKD, periods."""

__owner__ = "fiderate"
