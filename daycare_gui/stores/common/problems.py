"""Problems: bad input found while loading, reported instead of raised (see ``core.problems``)."""

from daycare_gui.core.problems import Problem, ProblemLog

__all__ = ["Problem", "ProblemLog"]
