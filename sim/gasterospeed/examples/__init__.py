"""Gastérospeed example files: the demo experiment and the card-mix balance search
(``GameSpec.examples``: ``tablesim examples`` lists them, ``tablesim demo`` plays the demo); a
package so that a built wheel ships them."""
