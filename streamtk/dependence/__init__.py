"""dependence"""
