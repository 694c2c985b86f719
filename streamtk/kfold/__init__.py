"""kfold"""
