"""_core"""
