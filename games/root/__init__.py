"""Root: the woodland war of cats, birds, rebels and a wanderer (engine in progress)."""
