------------------------------- MODULE IOUtils -------------------------------
IOEnv == CHOOSE r : TRUE
atoi(str) == CHOOSE i : TRUE
IODeserialize(absoluteFilename, compressed) == CHOOSE val : TRUE
=============================================================================
