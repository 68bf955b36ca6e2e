# Optional system libraries (Debian packages). Each one found adds a compile definition
# MOREAU_HAVE_<NAME>; code that needs it is compiled conditionally.
set(MOREAU_COLLISION_LIBS "")
set(MOREAU_IO_LIBS "")
