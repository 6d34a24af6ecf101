"""What every format's parser shares: bytes to text, printable text, names as compared, ratings and
numbers checked, time-control labels read, round results made into games, the rating list an
event's name suggests.
"""
