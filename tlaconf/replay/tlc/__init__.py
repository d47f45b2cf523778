"""The ``tlc`` checker: TLC (``tla2tools.jar``) decides traces exported in bounded chunks."""
