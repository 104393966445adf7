"""deck"""
